// A screening decision holds for the issue it read: a write that changes the state, title, labels or a
// person's scope decision drops it (migration 13), one that changes nothing screening reads keeps it.
#include <gtest/gtest.h>

#include <functional>

#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;

namespace {

IssueRecord record(int64_t number) {
  IssueRecord r;
  r.repo = "flashinfer-ai/flashinfer";
  r.number = number;
  r.url = "https://github.com/flashinfer-ai/flashinfer/issues/" + std::to_string(number);
  r.state = "closed";
  r.updated = "2024-05-01T00:00:00Z";
  r.title = "illegal memory access in batch decode";
  r.body = "crashes with CUDA error";
  r.labels = {"bug", "decode"};
  return r;
}

// The store after importing issues 1 and 2 and screening both as candidates.
struct ScreenedStore {
  faultline::testing::TempDir dir;
  Database db{dir.file("store.db")};
  int64_t first = 0, second = 0;
  ScreenedStore() {
    first = upsert_issue(db, record(1)).id;
    second = upsert_issue(db, record(2)).id;
    replace_screening(db, {{first, ScreeningDecision::kCandidate, "title:illegal-memory"},
                           {second, ScreeningDecision::kCandidate, "title:illegal-memory"}});
  }
};

}  // namespace

TEST(ScreeningOutdated, TheSameRecordImportedAgainKeepsItsDecision) {
  ScreenedStore store;
  IssueRecord again = record(1);
  again.labels = {"decode", "bug", "bug"};                    // the same set in another order, one twice
  again.body = "crashes with CUDA error; a new stack trace";  // screening reads no body
  again.updated = "2024-06-01T00:00:00Z";
  again.error_lines = {"RuntimeError: CUDA error: an illegal memory access was encountered"};
  upsert_issue(store.db, again);
  auto kept = find_screening(store.db, store.first);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->rule, "title:illegal-memory");
  EXPECT_EQ(load_screening(store.db).size(), 2u);
}

TEST(ScreeningOutdated, EachChangeScreeningReadsDropsTheDecisionOfThatIssueOnly) {
  const std::vector<std::pair<const char*, std::function<void(IssueRecord&)>>> changes = {
      {"state", [](IssueRecord& r) { r.state = "open"; }},
      {"title", [](IssueRecord& r) { r.title = "How do I build for sm_90?"; }},
      {"title case", [](IssueRecord& r) { r.title = "Illegal memory access in batch decode"; }},
      {"scope decision", [](IssueRecord& r) { r.scope = "out"; }},
      {"label added", [](IssueRecord& r) { r.labels.push_back("question"); }},
      {"label removed", [](IssueRecord& r) { r.labels = {"decode"}; }},
      {"labels cleared", [](IssueRecord& r) { r.labels.clear(); }},
  };
  for (const auto& [what, change] : changes) {
    ScreenedStore store;
    IssueRecord changed = record(1);
    change(changed);
    upsert_issue(store.db, changed);
    EXPECT_FALSE(find_screening(store.db, store.first)) << what;
    EXPECT_TRUE(find_screening(store.db, store.second)) << what;
  }
}

TEST(ScreeningOutdated, AMinedRecordWithoutAScopeDecisionKeepsThePersonsAndTheScreening) {
  ScreenedStore store;
  IssueRecord decided = record(1);
  decided.scope = "in";
  upsert_issue(store.db, decided);
  replace_screening(store.db, {{store.first, ScreeningDecision::kCandidate, "scope:in"}});
  upsert_issue(store.db, record(1));  // as mined: no scope, so the person's "in" stays (upsert_issue)
  EXPECT_TRUE(find_screening(store.db, store.first));
}

TEST(ScreeningOutdated, AStoreMigratedFromVersionTwelveKeepsItsDecisionsUntilAnIssueChanges) {
  faultline::testing::TempDir dir;
  {
    Database old(dir.file("store.db"), 12);
    old.exec("INSERT INTO repositories(id, full_name) VALUES (1, 'o/r')");
    old.exec(
        "INSERT INTO issues(id, repository_id, number, url, state, title) VALUES (1, 1, 7, 'u', 'closed', "
        "'t')");
    old.exec("INSERT INTO issue_labels(issue_id, name) VALUES (1, 'bug')");
    old.exec(
        "INSERT INTO screening(issue_id, decision, rule, screened_at) VALUES (1, 'candidate', 'title:x', "
        "'then')");
  }
  Database upgraded(dir.file("store.db"));
  EXPECT_TRUE(find_screening(upgraded, 1));
  upgraded.exec("UPDATE issues SET body = 'more text' WHERE id = 1");
  EXPECT_TRUE(find_screening(upgraded, 1));
  upgraded.exec("UPDATE issues SET state = 'open' WHERE id = 1");
  EXPECT_FALSE(find_screening(upgraded, 1));
}
