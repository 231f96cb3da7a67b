#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "common/one_line.hpp"

using faultline::common::one_line;

TEST(OneLine, ControlCharactersAndBrokenUtf8AreWrittenOutAndTheRestKept) {
  // By hand: \n \r \t by name, NUL 0x00, ESC 0x1b and DEL 0x7f as \xHH; "é" (c3 a9) and "€" (e2 82 ac) are
  // well-formed and kept; a lone continuation byte 0xa9, a cut sequence e2 82 and 0xff are escaped byte by
  // byte.
  const std::string in = std::string("a\nb\rc\td") + '\0' + "e\x1b[31mf\x7f" + "\xc3\xa9\xe2\x82\xac" +
                         "\xa9" + "\xe2\x82" + "g\xff";
  EXPECT_EQ(one_line(in), "a\\nb\\rc\\td\\x00e\\x1b[31mf\\x7f\xc3\xa9\xe2\x82\xac\\xa9\\xe2\\x82g\\xff");
  EXPECT_EQ(one_line("plain text, OWNER/NAME#12"), "plain text, OWNER/NAME#12");
  EXPECT_EQ(one_line(""), "");
}

TEST(OneLine, ControlsThatAreWellFormedUtf8AreWrittenOut) {
  // U+202E (e2 80 ae), the right-to-left override, would show "abc" + RLO + "gnp.exe" as "abcexe.png";
  // U+009B (c2 9b) is CSI; U+2066 (e2 81 a6) opens an isolate. "é" and "€" around them are kept; U+202F
  // (e2 80 af, a narrow no-break space) is just past the overrides and kept too.
  EXPECT_EQ(one_line("abc\xe2\x80\xaegnp.exe"), "abc\\u202egnp.exe");
  EXPECT_EQ(one_line("\xc3\xa9\xc2\x9b[31m\xe2\x81\xa6\xe2\x82\xac"),
            "\xc3\xa9\\u009b[31m\\u2066\xe2\x82\xac");
  EXPECT_EQ(one_line("a\xe2\x80\xaf" "b"), "a\xe2\x80\xaf" "b");
  // U+2028 and U+2029 (e2 80 a8, e2 80 a9) break the line in some terminals and viewers.
  EXPECT_EQ(one_line("a\xe2\x80\xa8" "b\xe2\x80\xa9" "c"), "a\\u2028b\\u2029c");
}

TEST(OneLine, AnErrorQuotingANulKeepsWhatFollowsIt) {
  // A message is read through what(), a C string: a raw NUL would end it there.
  const faultline::Error e(std::string("repo 'a") + '\0' + "b/c' is not of the form OWNER/NAME\n");
  EXPECT_STREQ(e.what(), "repo 'a\\x00b/c' is not of the form OWNER/NAME\\n");
}
