#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/text_file.hpp"
#include "tests/file_size_limit.hpp"
#include "tests/temp_dir.hpp"

using faultline::common::read_text_file;
using faultline::common::replace_directory_atomically;
using faultline::common::write_file_atomically;

namespace {

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string error_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(AtomicFile, ReplacesTheFileWithTheWholeContentAndLeavesNothingElse) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("out.csv", "old\n");
  std::string content(100000, 'x');
  write_file_atomically(path, content);
  EXPECT_EQ(read_text_file(path), content);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"out.csv"});
}

TEST(AtomicFile, AFullDiskLeavesTheOldFileNoTemporaryAndAnErrorNamingTheFile) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("out.csv", "old\n");
  std::string message;
  {
    faultline::testing::FileSizeLimit disk_full(4096);
    message = error_of([&] { write_file_atomically(path, std::string(100000, 'x')); });
  }
  EXPECT_EQ(message.rfind(path + ": cannot write the file", 0), 0u) << message;
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"out.csv"});
  // The same write below the limit goes through: the limit, not the content, made it fail.
  faultline::testing::FileSizeLimit roomy(1 << 20);
  EXPECT_EQ(error_of([&] { write_file_atomically(path, std::string(100000, 'x')); }), "");
}

TEST(AtomicFile, PiecesHandedOnOneByOneMakeTheFileTheirConcatenationInOrder) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("index.html", "old\n");
  // Pieces on both sides of any gathering size: many small ones, one far larger than a page, small ones
  // again, a last small one that no size would fill; each names its place, so a lost, repeated or
  // reordered piece shows.
  std::vector<std::string> pieces;
  for (int i = 0; i < 20000; ++i) pieces.push_back("<tr>" + std::to_string(i) + "</tr>");
  pieces.push_back(std::string(300000, 'L'));
  pieces.push_back("");
  pieces.push_back(std::string(40000, 'M'));  // does not fit beside what is gathered, is not large either
  for (int i = 0; i < 3000; ++i) pieces.push_back("<td>" + std::to_string(i) + "</td>");
  pieces.push_back("end\n");
  std::string whole;
  for (const auto& p : pieces) whole += p;
  write_file_atomically(path, [&](const faultline::common::PieceWriter& write) {
    for (const auto& p : pieces) write(p);
  });
  EXPECT_EQ(read_text_file(path), whole);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"index.html"});
}

TEST(AtomicFile, AProducerThatFailsPartWayLeavesTheOldFileAndNoTemporary) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("index.html", "old\n");
  // More than any gathering size has gone out before the failure.
  auto fail_after = [](int pieces) {
    return [pieces](const faultline::common::PieceWriter& write) {
      for (int i = 0; i < pieces; ++i) write(std::string(100000, 'x'));
      throw faultline::Error("the report's data ran out");
    };
  };
  EXPECT_EQ(error_of([&] { write_file_atomically(path, fail_after(3)); }), "the report's data ran out");
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"index.html"});
}

TEST(AtomicFile, AFullDiskWhilePiecesAreGatheredLeavesTheOldFileAndNamesTheFile) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("index.html", "old\n");
  auto small_pieces = [](const faultline::common::PieceWriter& write) {
    for (int i = 0; i < 20000; ++i) write("0123456789");
  };
  std::string message;
  {
    faultline::testing::FileSizeLimit disk_full(4096);
    message = error_of([&] { write_file_atomically(path, small_pieces); });
  }
  EXPECT_EQ(message.rfind(path + ": cannot write the file", 0), 0u) << message;
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"index.html"});
  // A producer that catches the failure and goes on still gets it at the end, and no cut file, even when
  // the disk has room again by then (the limit is lifted before the producer returns).
  auto swallowing = [](const faultline::common::PieceWriter& write) {
    faultline::testing::FileSizeLimit disk_full(4096);
    for (int i = 0; i < 20000; ++i) {
      try {
        write("0123456789");
      } catch (const faultline::Error&) {
      }
    }
  };
  message = error_of([&] { write_file_atomically(path, swallowing); });
  EXPECT_EQ(message.rfind(path + ": cannot write the file", 0), 0u) << message;
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"index.html"});
}

TEST(AtomicFile, NeverWritesThroughALinkAtAGuessableTemporaryName) {
  faultline::testing::TempDir dir;
  std::string victim = dir.write("victim", "keep me\n");
  std::filesystem::create_symlink(victim, dir.file("report.md.tmp"));
  write_file_atomically(dir.file("report.md"), "# report\n");
  EXPECT_EQ(read_text_file(victim), "keep me\n");
  EXPECT_EQ(read_text_file(dir.file("report.md")), "# report\n");
}

TEST(AtomicFile, ADirectoryIsSwappedInOnlyWhenComplete) {
  faultline::testing::TempDir dir;
  std::string models = dir.file("store.db.models");
  std::filesystem::create_directories(models);
  dir.write("store.db.models/model.json", "old model\n");
  std::string message = error_of([&] {
    replace_directory_atomically(models, [](const std::string& staging) {
      write_file_atomically(staging + "/model.json", "new model\n");
      throw faultline::Error(staging + "/symptom.ftz: cannot write the file");
    });
  });
  EXPECT_NE(message.find("symptom.ftz"), std::string::npos);
  EXPECT_EQ(read_text_file(models + "/model.json"), "old model\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"store.db.models"});
  replace_directory_atomically(models, [](const std::string& staging) {
    write_file_atomically(staging + "/model.json", "new model\n");
  });
  EXPECT_EQ(read_text_file(models + "/model.json"), "new model\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"store.db.models"});
}
