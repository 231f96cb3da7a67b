// A screening decision and a prediction hold for the issue they read (migration 13): a write that changes a
// person's scope decision drops the screening decision, and one that changes the state, title or labels does
// where the rules made it; one that changes the title, text, error lines, environment, discussion, the
// comments where they are the discussion, or the repository's name other than in case drops the prediction;
// a write that changes nothing either reads keeps both. OutdatedResultCounter counts the issues a command's
// own writes left without them.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/mining_store.hpp"
#include "datasets/store/outdated_results.hpp"
#include "datasets/store/prediction_store.hpp"
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
  r.error_lines = {"RuntimeError: CUDA error: an illegal memory access was encountered"};
  r.env = "CUDA 12.4, H100";
  r.labels = {"bug", "decode"};
  return r;
}

Prediction prediction_of(int64_t issue_id) {
  return {issue_id, "v", "in", .9, "crash", .9, "improper_memory_access", .9, false, "[]", .5, .5};
}

// The store after importing issues 1 and 2, screening both as candidates and classifying both.
struct ResultStore {
  faultline::testing::TempDir dir;
  Database db{dir.file("store.db")};
  int64_t first = 0, second = 0;
  ResultStore() {
    first = upsert_issue(db, record(1)).id;
    second = upsert_issue(db, record(2)).id;
    replace_screening(db, {{first, ScreeningDecision::kCandidate, "title:illegal-memory"},
                           {second, ScreeningDecision::kCandidate, "title:illegal-memory"}});
    classify_again();
  }
  void classify_again() { replace_predictions(db, {prediction_of(first), prediction_of(second)}); }
  bool screened(int64_t id) { return find_screening(db, id).has_value(); }
  bool predicted(int64_t id) { return find_prediction(db, id).has_value(); }
};

CommentRecord comment(int64_t id, int64_t issue_number, const std::string& body) {
  return {id, "flashinfer-ai/flashinfer", issue_number, "someone", "2024-05-02T00:00:00Z", "", body, {}};
}

}  // namespace

TEST(OutdatedResults, TheSameRecordImportedAgainKeepsBoth) {
  ResultStore store;
  IssueRecord again = record(1);
  again.labels = {"decode", "bug", "bug"};  // the same set in another order, one twice
  again.updated = "2024-06-01T00:00:00Z";   // neither reads when it was last updated
  upsert_issue(store.db, again);
  auto kept = find_screening(store.db, store.first);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->rule, "title:illegal-memory");
  EXPECT_TRUE(store.predicted(store.first));
  EXPECT_TRUE(store.screened(store.second));
  EXPECT_TRUE(store.predicted(store.second));
}

TEST(OutdatedResults, EachChangeDropsWhatReadItForThatIssueOnly) {
  struct Change {
    const char* what;
    std::function<void(IssueRecord&)> apply;
    bool screening_reads, classifier_reads;
  };
  const std::vector<Change> changes = {
      {"state", [](IssueRecord& r) { r.state = "open"; }, true, false},
      {"title", [](IssueRecord& r) { r.title = "How do I build for sm_90?"; }, true, true},
      {"title case", [](IssueRecord& r) { r.title = "Illegal memory access in batch decode"; }, true, true},
      {"scope decision", [](IssueRecord& r) { r.scope = "out"; }, true, false},
      {"label added", [](IssueRecord& r) { r.labels.push_back("question"); }, true, false},
      {"label removed", [](IssueRecord& r) { r.labels = {"decode"}; }, true, false},
      {"labels cleared", [](IssueRecord& r) { r.labels.clear(); }, true, false},
      {"body", [](IssueRecord& r) { r.body += " after the second call"; }, false, true},
      {"error lines", [](IssueRecord& r) { r.error_lines.clear(); }, false, true},
      {"environment", [](IssueRecord& r) { r.env = "CUDA 12.8, B200"; }, false, true},
      {"discussion", [](IssueRecord& r) { r.discussion = "fixed by the next release"; }, false, true},
  };
  for (const auto& change : changes) {
    ResultStore store;
    IssueRecord changed = record(1);
    change.apply(changed);
    upsert_issue(store.db, changed);
    EXPECT_EQ(store.screened(store.first), !change.screening_reads) << change.what;
    EXPECT_EQ(store.predicted(store.first), !change.classifier_reads) << change.what;
    EXPECT_TRUE(store.screened(store.second)) << change.what;
    EXPECT_TRUE(store.predicted(store.second)) << change.what;
  }
}

TEST(OutdatedResults, ADecisionThatFollowedAPersonsScopeGoesOnlyWithIt) {
  ResultStore store;
  IssueRecord decided = record(1);
  decided.scope = "in";
  upsert_issue(store.db, decided);
  replace_screening(store.db, {{store.first, ScreeningDecision::kCandidate, "scope:in"},
                               {store.second, ScreeningDecision::kCandidate, "title:illegal-memory"}});
  decided.state = "open";
  decided.title = "How do I build for sm_90?";
  decided.labels = {"question"};
  upsert_issue(store.db, decided);  // what the rules read, not what the person decided
  EXPECT_TRUE(store.screened(store.first));
  decided.scope = "out";
  upsert_issue(store.db, decided);
  EXPECT_FALSE(store.screened(store.first));
  EXPECT_TRUE(store.screened(store.second));
}

TEST(OutdatedResults, AMinedRecordWithoutAScopeDecisionKeepsThePersonsAndTheScreening) {
  ResultStore store;
  IssueRecord decided = record(1);
  decided.scope = "in";
  upsert_issue(store.db, decided);
  replace_screening(store.db, {{store.first, ScreeningDecision::kCandidate, "scope:in"}});
  upsert_issue(store.db, record(1));  // as mined: no scope, so the person's "in" stays (upsert_issue)
  EXPECT_TRUE(store.screened(store.first));
}

TEST(OutdatedResults, ACommentAddedEditedOrMovedDropsThePredictionOfItsIssue) {
  ResultStore store;
  upsert_comment(store.db, comment(100, 1, "same here on A100"));
  EXPECT_FALSE(store.predicted(store.first));
  EXPECT_TRUE(store.predicted(store.second));
  EXPECT_TRUE(store.screened(store.first));  // screening reads no comment

  store.classify_again();
  upsert_comment(store.db, comment(100, 1, "same here on A100"));  // listed again, unchanged
  EXPECT_TRUE(store.predicted(store.first));
  upsert_comment(store.db, comment(100, 1, "same here on A100 and H100"));  // edited
  EXPECT_FALSE(store.predicted(store.first));

  store.classify_again();
  upsert_comment(store.db, comment(100, 2, "same here on A100 and H100"));  // now under issue 2
  EXPECT_FALSE(store.predicted(store.first));
  EXPECT_FALSE(store.predicted(store.second));

  upsert_comment(store.db, comment(101, 2, "fixed by the next release"));
  store.classify_again();
  store.db.exec("UPDATE comments SET created = '2024-05-03T00:00:00Z' WHERE id = 100");  // after 101 now
  EXPECT_TRUE(store.predicted(store.first));
  EXPECT_FALSE(store.predicted(store.second));

  store.classify_again();
  store.db.exec("DELETE FROM comments WHERE id = 100");
  EXPECT_TRUE(store.predicted(store.first));
  EXPECT_FALSE(store.predicted(store.second));
}

TEST(OutdatedResults, ACommentOnAnIssueWithADiscussionOfItsOwnKeepsItsPrediction) {
  // The classifier reads an issue's comments only where the record brought no discussion (an imported
  // corpus record does): there a comment changes nothing it reads.
  ResultStore store;
  IssueRecord discussed = record(1);
  discussed.discussion = "maintainer: fixed in the next release";
  upsert_issue(store.db, discussed);
  store.classify_again();
  upsert_comment(store.db, comment(100, 1, "same here on A100"));
  upsert_comment(store.db, comment(100, 1, "same here on A100 and H100"));
  store.db.exec("DELETE FROM comments WHERE id = 100");
  EXPECT_TRUE(store.predicted(store.first));
}

TEST(OutdatedResults, ARenameDropsThePredictionsOfItsIssuesUnlessOnlyTheCaseChanged) {
  ResultStore store;
  rename_repository(store.db, "flashinfer-ai/flashinfer", "FlashInfer-AI/FlashInfer");
  EXPECT_TRUE(store.predicted(store.first));  // the classifier reads the name in lower case
  rename_repository(store.db, "FlashInfer-AI/FlashInfer", "flashinfer-ai/flashinfer-kernels");
  EXPECT_FALSE(store.predicted(store.first));
  EXPECT_FALSE(store.predicted(store.second));
  EXPECT_TRUE(store.screened(store.first));  // screening reads no name
}

TEST(OutdatedResults, TheCounterCountsTheIssuesItsOwnConnectionLeftWithoutResults) {
  ResultStore store;
  Database other(store.dir.file("store.db"));  // another process's connection to the same store
  ResultCounts dropped;
  {
    OutdatedResultCounter counter(store.db);
    replace_screening(other, {});  // another process screens meanwhile: not this command's doing
    replace_predictions(other, {prediction_of(store.first), prediction_of(store.second)});
    IssueRecord changed = record(1);
    changed.body += " after the second call";
    upsert_issue(store.db, changed);
    // Classified again by the other process, then changed again by this one: one issue, counted once.
    replace_predictions(other, {prediction_of(store.first), prediction_of(store.second)});
    changed.body += " and the third";
    upsert_issue(store.db, changed);
    dropped = counter.dropped();
  }
  EXPECT_EQ(dropped.screening_decisions, 0);
  EXPECT_EQ(dropped.predictions, 1);
  auto left = store.db.prepare("SELECT COUNT(*) FROM sqlite_temp_master");
  left.step();
  EXPECT_EQ(left.integer(0), 0);         // its triggers and tables went with it
  OutdatedResultCounter next(store.db);  // so a next one can start on the same connection
  EXPECT_EQ(next.dropped().predictions, 0);
}

TEST(OutdatedResults, ACountInATransactionThatRollsBackIsRolledBack) {
  ResultStore store;
  OutdatedResultCounter counter(store.db);
  EXPECT_THROW(store.db.transaction([&] {
    IssueRecord changed = record(1);
    changed.state = "open";
    upsert_issue(store.db, changed);
    throw faultline::Error("a bad record further on");
  }),
               faultline::Error);
  EXPECT_EQ(counter.dropped().screening_decisions, 0);
  EXPECT_TRUE(store.screened(store.first));
}

TEST(OutdatedResults, WhatAWriteDroppedIsSaidWithTheCommandThatMakesItAgain) {
  EXPECT_EQ(outdated_lines({2, 0}),
            "2 issues changed in what screening reads (state, title, labels or scope decision) and lost the "
            "screening decision: run 'faultline screen'\n");
  const std::string both = outdated_lines({1, 1});
  EXPECT_EQ(both.rfind("1 issue changed in what screening reads", 0), 0u) << both;
  EXPECT_NE(
      both.find("\n1 issue changed in what the classifier reads (title, text, error lines, environment, "
                "discussion or comments, or the repository's name) and lost the prediction: run "
                "'faultline classify'\n"),
      std::string::npos)
      << both;
  EXPECT_EQ(outdated_lines({0, 0}), "");
  EXPECT_EQ(outdated_json({2, 3}), nlohmann::json({{"screening_outdated", 2}, {"predictions_outdated", 3}}));
}

TEST(OutdatedResults, AStoreMigratedFromVersionTwelveKeepsItsResultsUntilAnIssueChanges) {
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
    old.exec(
        "INSERT INTO predictions(issue_id, model_version, scope, scope_p, symptom, symptom_p, root_cause, "
        "root_cause_p, abstain, predicted_at) VALUES (1, 'v', 'in', .9, 'crash', .8, 'api_misuse', .4, 1, "
        "'then')");
  }
  Database upgraded(dir.file("store.db"));
  EXPECT_TRUE(find_screening(upgraded, 1));
  EXPECT_TRUE(find_prediction(upgraded, 1));
  upgraded.exec("UPDATE issues SET body = 'more text' WHERE id = 1");
  EXPECT_TRUE(find_screening(upgraded, 1));
  EXPECT_FALSE(find_prediction(upgraded, 1));
  upgraded.exec("UPDATE issues SET state = 'open' WHERE id = 1");
  EXPECT_FALSE(find_screening(upgraded, 1));
}
