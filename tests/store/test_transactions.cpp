#include <gtest/gtest.h>

#include "common/error.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/snapshot.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;

namespace {

IssueRecord issue(int64_t number) {
  IssueRecord r;
  r.repo = "triton-lang/triton";
  r.number = number;
  r.url = "https://github.com/triton-lang/triton/issues/" + std::to_string(number);
  r.state = "closed";
  r.title = "issue " + std::to_string(number);
  return r;
}

}  // namespace

TEST(Transactions, FailedMultiRowWriteLeavesDatabaseUnchanged) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  upsert_issue(db, issue(1));
  EXPECT_THROW(db.transaction([&] {
    upsert_issue(db, issue(2));
    upsert_issue(db, issue(3));
    throw faultline::Error("simulated failure after two rows");
  }),
               faultline::Error);
  EXPECT_EQ(count_issues(db), 1);
  EXPECT_FALSE(find_issue(db, "triton-lang/triton", 2).has_value());
}

// A transaction opened inside one joins it: what the inner one wrote goes when the outer one fails after
// it (it had been committed by then, or BEGIN failed inside BEGIN), and stays when the outer one commits.
TEST(Transactions, ATransactionInsideOneCommitsOrRollsBackWithIt) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  EXPECT_THROW(db.transaction([&] {
    db.transaction([&] { upsert_issue(db, issue(1)); });
    throw faultline::Error("simulated failure after the inner transaction");
  }),
               faultline::Error);
  EXPECT_EQ(count_issues(db), 0);
  db.transaction([&] {
    db.transaction([&] { upsert_issue(db, issue(1)); });
    upsert_issue(db, issue(2));
  });
  EXPECT_EQ(count_issues(db), 2);
}

TEST(Transactions, SnapshotWithOneBadLineImportsNothing) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  std::string good = R"({"repo":"NVIDIA/cutlass","number":1,"state":"closed","title":"a"})";
  std::string bad = R"({"repo":"NVIDIA/cutlass","number":2,"state":"merged","title":"b"})";
  std::string path = dir.write("snap.jsonl", good + "\n" + bad + "\n");
  try {
    import_snapshot(db, path);
    FAIL() << "expected an error";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("snap.jsonl:2: state 'merged' must be 'open' or 'closed'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(count_issues(db), 0);
}

TEST(Transactions, ConstraintViolationInsideImportRollsBackEarlierRows) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  EXPECT_THROW(db.transaction([&] {
    upsert_issue(db, issue(10));
    db.prepare(
          "INSERT INTO issues(repository_id, number, url, state, title) VALUES (999, 1, 'u', 'closed', 't')")
        .run();  // no repository 999: the foreign key rejects it
  }),
               faultline::Error);
  EXPECT_EQ(count_issues(db), 0);
}

// Another process's write lands between two reads: inside read_consistently both reads see the store as it
// was at the first; outside it the second sees the write (the trigger, so the check can fail).
TEST(Transactions, ReadsInsideReadConsistentlySeeOneStateOfTheStore) {
  faultline::testing::TempDir dir;
  Database reader(dir.file("store.db"));
  Database writer(dir.file("store.db"));
  upsert_issue(writer, issue(1));
  int64_t first = 0, second = 0;
  reader.read_consistently([&] {
    first = count_issues(reader);
    upsert_issue(writer, issue(2));
    second = count_issues(reader);
    reader.read_consistently([&] { EXPECT_EQ(count_issues(reader), 1); });  // nested: the same state
  });
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 1);
  first = count_issues(reader);
  upsert_issue(writer, issue(3));
  EXPECT_EQ(first, 2);
  EXPECT_EQ(count_issues(reader), 3);
}
