#include <gtest/gtest.h>

#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;

namespace {

IssueRecord mined(const std::string& title) {
  IssueRecord r;
  r.repo = "Dao-AILab/flash-attention";
  r.number = 282;
  r.url = "https://github.com/Dao-AILab/flash-attention/issues/282";
  r.state = "closed";
  r.title = title;
  return r;  // a mined record carries no scope decision
}

IssueRecord stored(Database& db) {
  for (auto& r : load_issues(db)) return r;
  return {};
}

}  // namespace

TEST(IssueUpsert, AMinedRecordKeepsTheScopeDecisionAPersonRecorded) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  IssueRecord imported = mined("causal mask wrong");
  imported.scope = "out";
  imported.scope_reason = "a question about the Python API, no failure";
  upsert_issue(db, imported);
  upsert_issue(db, mined("causal mask wrong in the last block"));
  IssueRecord after = stored(db);
  EXPECT_EQ(after.title, "causal mask wrong in the last block");  // mined fields are refreshed
  EXPECT_EQ(after.scope, std::optional<std::string>("out"));
  EXPECT_EQ(after.scope_reason, std::optional<std::string>("a question about the Python API, no failure"));
}

TEST(IssueUpsert, ARecordWithAScopeDecisionReplacesTheOldDecision) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  IssueRecord first = mined("causal mask wrong");
  first.scope = "out";
  first.scope_reason = "question";
  upsert_issue(db, first);
  IssueRecord second = mined("causal mask wrong");
  second.scope = "in";
  upsert_issue(db, second);
  IssueRecord after = stored(db);
  EXPECT_EQ(after.scope, std::optional<std::string>("in"));
  EXPECT_EQ(after.scope_reason, std::nullopt);
}
