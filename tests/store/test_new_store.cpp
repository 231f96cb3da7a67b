// An all-or-nothing verb on a missing store makes one only when it succeeds, and never replaces or deletes
// a store another process made meanwhile.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/new_store.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;

namespace {

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void add_issue(Database& db, int64_t number) {
  IssueRecord r;
  r.repo = "a/b";
  r.number = number;
  r.url = "https://github.com/a/b/issues/" + std::to_string(number);
  r.state = "open";
  r.title = "crash";
  upsert_issue(db, r);
}

}  // namespace

TEST(NewStore, WorkThatFailsOnAMissingStoreLeavesNoStoreAndNoHiddenFile) {
  faultline::testing::TempDir dir;
  EXPECT_THROW(work_on_store_or_make_one(dir.file("s.db"), {},
                                         [](Database& db) {
                                           add_issue(db, 1);
                                           throw std::runtime_error("bad record");
                                         }),
               std::runtime_error);
  EXPECT_EQ(entries(dir.path().string()), std::vector<std::string>{});
}

TEST(NewStore, WorkThatSucceedsLeavesOneWholeStoreAtThePath) {
  faultline::testing::TempDir dir;
  work_on_store_or_make_one(dir.file("s.db"), {}, [](Database& db) { add_issue(db, 1); });
  EXPECT_EQ(entries(dir.path().string()), std::vector<std::string>{"s.db"});  // no log beside it: one file
  Database db(dir.file("s.db"), OpenOptions{false});
  EXPECT_EQ(count_issues(db), 1);
  // On a store that exists, the work runs on it.
  work_on_store_or_make_one(dir.file("s.db"), {}, [](Database& db) { add_issue(db, 2); });
  EXPECT_EQ(count_issues(db), 2);
}

TEST(NewStore, AStoreAnotherProcessMadeMeanwhileIsNeitherReplacedNorDeleted) {
  faultline::testing::TempDir dir;
  const std::string path = dir.file("s.db");
  std::string message;
  try {
    work_on_store_or_make_one(path, {}, [&](Database& mine) {
      add_issue(mine, 1);
      Database theirs(path);  // made while this work runs
      add_issue(theirs, 7);
      add_issue(theirs, 8);
    });
  } catch (const faultline::Error& e) {
    message = e.what();
  }
  EXPECT_EQ(message, path +
                         ": another faultline made this store meanwhile; nothing was written to it (run the "
                         "command again)");
  Database theirs(path, OpenOptions{false});
  EXPECT_EQ(count_issues(theirs), 2);
  // And when this work fails instead, their store stays too.
  EXPECT_THROW(work_on_store_or_make_one(dir.file("t.db"), {},
                                         [&](Database&) {
                                           Database other(dir.file("t.db"));
                                           add_issue(other, 9);
                                           throw std::runtime_error("bad record");
                                         }),
               std::runtime_error);
  Database other(dir.file("t.db"), OpenOptions{false});
  EXPECT_EQ(count_issues(other), 1);
}

TEST(NewStore, ALinkToAStoreIsFollowedAndALinkToNothingIsRefused) {
  faultline::testing::TempDir dir;
  namespace fs = std::filesystem;
  // A link to no file: SQLite would make the store where it points, whole or not. Refused; nothing made,
  // the link kept. The same through a second link.
  fs::create_symlink("elsewhere/s.db", dir.file("dangling.db"));
  fs::create_directory(dir.file("elsewhere"));
  fs::create_symlink("dangling.db", dir.file("twice.db"));
  for (const std::string name : {"dangling.db", "twice.db"}) {
    try {
      work_on_store_or_make_one(dir.file(name), {}, [](Database& db) { add_issue(db, 1); });
      ADD_FAILURE() << name << ": a store was made";
    } catch (const faultline::Error& e) {
      const std::string to = name == "twice.db" ? "dangling.db" : "elsewhere/s.db";
      EXPECT_EQ(std::string(e.what()), dir.file(name) + ": a symbolic link to " + to +
                                           ", where there is no file; give the place a store should be "
                                           "made at as --db, or remove the link");
    }
  }
  EXPECT_EQ(entries(dir.file("elsewhere")), std::vector<std::string>{});
  // A loop is no missing file.
  fs::create_symlink("loop2.db", dir.file("loop1.db"));
  fs::create_symlink("loop1.db", dir.file("loop2.db"));
  try {
    work_on_store_or_make_one(dir.file("loop1.db"), {}, [](Database& db) { add_issue(db, 1); });
    ADD_FAILURE() << "a store was made through a loop";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              dir.file("loop1.db") +
                  ": a symbolic link that cannot be followed: Too many levels of symbolic links");
  }
  // A verb that only reads says the same, not "no store at" alone (nor an exception from the library).
  try {
    Database reading(dir.file("loop1.db"), OpenOptions{false});
    ADD_FAILURE() << "a store was opened through a loop";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "no store at " + dir.file("loop1.db") + ": Too many levels of symbolic links");
  }
  EXPECT_TRUE(fs::is_symlink(dir.file("dangling.db")));
  // Once the store exists where the link points, the link leads to it.
  work_on_store_or_make_one(dir.file("elsewhere/s.db"), {}, [](Database& db) { add_issue(db, 1); });
  work_on_store_or_make_one(dir.file("twice.db"), {}, [](Database& db) { add_issue(db, 2); });
  Database db(dir.file("elsewhere/s.db"), OpenOptions{false});
  EXPECT_EQ(count_issues(db), 2);
}

TEST(NewStore, WhatAKilledImportLeftBesideAStoreIsRemovedByTheNextImport) {
  // A store being made (locked by nobody, two minutes old) and its log, left by an import killed before it
  // put the store in place; the store was then made by another import. The next import tidies both.
  faultline::testing::TempDir dir;
  namespace fs = std::filesystem;
  work_on_store_or_make_one(dir.file("s.db"), {}, [](Database& db) { add_issue(db, 1); });
  for (const std::string name : {".s.db.faultline-Ab12Cd", ".s.db.faultline-Ab12Cd-wal"}) {
    dir.write(name, "x");
    fs::last_write_time(dir.file(name), fs::last_write_time(dir.file(name)) - std::chrono::minutes(2));
  }
  EXPECT_EQ(entries(dir.path().string()).size(), 3u);
  work_on_store_or_make_one(dir.file("s.db"), {}, [](Database& db) { add_issue(db, 2); });
  EXPECT_EQ(entries(dir.path().string()), std::vector<std::string>{"s.db"});
}

TEST(NewStore, ANameTooLongForTheHiddenStoresJournalIsRefusedInTheUsersTerms) {
  // The hidden store's journal is ".NAME.faultline-XXXXXX-journal", NAME + 26 bytes, and a file name may
  // have 255 (NAME_MAX on Linux): 229 bytes is the longest NAME, 230 one too many.
  faultline::testing::TempDir dir;
  const std::string too_long = dir.file(std::string(230, 'd'));
  try {
    work_on_store_or_make_one(too_long, {}, [](Database& db) { add_issue(db, 1); });
    ADD_FAILURE() << "a store of a 230-byte name was made";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              too_long +
                  ": a name too long for a new store: its journal, made beside it under a "
                  "hidden name, would need a name of 256 bytes, over the 255 a file name may have");
  }
  EXPECT_EQ(entries(dir.path().string()), std::vector<std::string>{});
  work_on_store_or_make_one(dir.file(std::string(229, 'd')), {}, [](Database& db) { add_issue(db, 1); });
  EXPECT_EQ(entries(dir.path().string()), std::vector<std::string>{std::string(229, 'd')});
}
