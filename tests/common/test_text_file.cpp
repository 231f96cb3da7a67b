#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/text_file.hpp"
#include "tests/temp_dir.hpp"

using faultline::common::for_each_line;

namespace {

using Lines = std::vector<std::pair<std::string, int>>;

Lines lines_of(const std::string& path, size_t longest) {
  Lines out;
  for_each_line(path, longest, [&](const std::string& text, int number) { out.emplace_back(text, number); });
  return out;
}

std::string error_of(const std::string& path, size_t longest) {
  try {
    lines_of(path, longest);
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TextFile, EachLineComesWithItsNumberAsGetlineWouldGiveIt) {
  faultline::testing::TempDir dir;
  // Worked by hand: an empty line counts, a CR stays in its line, the last line needs no '\n' after it, and
  // a '\n' at the very end makes no empty line after it.
  EXPECT_EQ(lines_of(dir.write("a", "a\nbb\r\n\nccc"), 10),
            (Lines{{"a", 1}, {"bb\r", 2}, {"", 3}, {"ccc", 4}}));
  EXPECT_EQ(lines_of(dir.write("b", "a\n"), 10), (Lines{{"a", 1}}));
  EXPECT_EQ(lines_of(dir.write("c", ""), 10), Lines{});
  // Lines across the reader's 64 KiB chunks arrive whole: 70,000 bytes, then 65,536, then one.
  const std::string first(70000, 'x'), second(65536, 'y');
  const auto got = lines_of(dir.write("d", first + "\n" + second + "\nz"), 70000);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], std::make_pair(first, 1));
  EXPECT_EQ(got[1], std::make_pair(second, 2));
  EXPECT_EQ(got[2], std::make_pair(std::string("z"), 3));
  // A '\n' as the last byte of the first chunk (byte 65,536, a line of 65,535 before it), then as the first
  // byte of the second (a line of 65,536), each followed by "a".
  for (const size_t before : {65535, 65536}) {
    const std::string line(before, 'x');
    EXPECT_EQ(lines_of(dir.write("e", line + "\na"), before), (Lines{{line, 1}, {"a", 2}})) << before;
  }
}

TEST(TextFile, ALineLongerThanTheLimitIsRefusedNamingIt) {
  faultline::testing::TempDir dir;
  // Three bytes is the limit: "abc" passes, "abcd" on line 2 does not; its '\n' does not count.
  const std::string path = dir.write("a", "abc\nabcd\n");
  EXPECT_EQ(error_of(path, 3), path + ":2: a line of more than 3 bytes; refused");
  EXPECT_EQ(lines_of(path, 4), (Lines{{"abc", 1}, {"abcd", 2}}));
  // The same without a '\n' at the end, and across chunks: 70,001 bytes against a limit of 70,000.
  const std::string last = dir.write("b", "abcd");
  EXPECT_EQ(error_of(last, 3), last + ":1: a line of more than 3 bytes; refused");
  const std::string long_line = dir.write("c", std::string(70001, 'x'));
  EXPECT_EQ(error_of(long_line, 70000), long_line + ":1: a line of more than 70000 bytes; refused");
  EXPECT_EQ(error_of(long_line, 70001), "");
  // A whole number of MiB is named so.
  EXPECT_EQ(error_of(long_line, size_t{1} << 20), "");
  const std::string mib = dir.write("d", std::string((size_t{1} << 20) + 1, 'x'));
  EXPECT_EQ(error_of(mib, size_t{1} << 20), mib + ":1: a line of more than 1 MiB; refused");
}
