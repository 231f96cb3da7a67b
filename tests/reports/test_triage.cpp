#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "classifier/model/classify_store.hpp"
#include "common/error.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"
#include "datasets/store/suite_store.hpp"
#include "reports/triage.hpp"
#include "tests/model/mixed_corpus.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline;

namespace {

// Issue 61: unlabeled, its discussion only in a mined comment (classify reads comments as discussion).
constexpr int64_t kCommented = 61;

// A store with the mixed corpus (60 labeled issues, a scope decision on each: every fourth out, so 45 are
// cases the models learn), one unlabeled commented issue, a trained model and its predictions.
class TriageStore : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<faultline::testing::TempDir>();
    db_path_ = dir_->file("store.db");
    datasets::Database db(db_path_);
    auto corpus = faultline::testing::mixed_corpus();
    db.transaction([&] {
      std::vector<datasets::FinalLabel> finals;
      for (auto l : corpus) {
        l.issue.scope = l.issue.number % 4 ? "in" : "out";
        auto id = datasets::upsert_issue(db, l.issue).id;
        finals.push_back({id, l.symptom, l.root_cause, "agreed", "a,b"});
      }
      datasets::IssueRecord commented;
      commented.repo = "o/r";
      commented.number = kCommented;
      commented.url = "https://github.com/o/r/issues/61";
      commented.state = "open";
      commented.title = "kernel error";
      datasets::upsert_issue(db, commented);
      datasets::upsert_comment(db,
                               {1, "o/r", kCommented, "x", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z",
                                "deadlock at the barrier, warps stuck forever in allreduce", std::nullopt});
      int64_t audit = datasets::record_audit(db, "a,b", static_cast<int>(finals.size()), 1.0, 0.8, "pass");
      datasets::replace_final_labels(db, finals, audit);
    });
    model::train_from_store(db, model::default_model_dir(db_path_), {});
    model::classify_store(db, model::default_model_dir(db_path_));
  }
  static void TearDownTestSuite() { dir_.reset(); }

  // The catalog: one reproducer modeled on issue 3 (a hang), one of the crash class modeled on none.
  static std::vector<datasets::CatalogEntry> catalog() {
    return {{"hang-repro", "A hang", "hang", "concurrency_error", {"https://github.com/o/r/issues/3"}},
            {"crash-repro", "A crash", "crash", "improper_memory_access", {}},
            {"hang-other", "Another hang", "hang", "concurrency_error", {}}};
  }

  inline static std::unique_ptr<faultline::testing::TempDir> dir_;
  inline static std::string db_path_;
};

}  // namespace

TEST_F(TriageStore, PredictionOfAStoredIssueEqualsWhatClassifyStored) {
  datasets::Database db(db_path_);
  reports::Triage triage(db, model::default_model_dir(db_path_), catalog());
  int checked = 0;
  for (int64_t number = 1; number <= kCommented; ++number) {
    auto r = triage.triage(triage.stored_issue("o/r", number));
    auto stored = datasets::find_prediction(db, *datasets::find_issue(db, "o/r", number));
    ASSERT_TRUE(stored);
    EXPECT_EQ(r.model_version, stored->model_version);
    EXPECT_EQ(r.prediction.scope, stored->scope);
    EXPECT_DOUBLE_EQ(r.prediction.scope_p, stored->scope_p);
    EXPECT_EQ(r.prediction.symptom, stored->symptom);
    EXPECT_DOUBLE_EQ(r.prediction.symptom_p, stored->symptom_p);
    EXPECT_EQ(r.prediction.root_cause, stored->root_cause);
    EXPECT_DOUBLE_EQ(r.prediction.root_cause_p, stored->root_cause_p);
    EXPECT_EQ(r.prediction.abstain, stored->abstain);
    EXPECT_EQ(nlohmann::json(r.prediction.rules_fired).dump(), stored->rules_fired);
    ++checked;
  }
  EXPECT_EQ(checked, 61);
  // The commented issue read without its comment (as load_issue alone gives it) is predicted otherwise:
  // reading the comments is what makes the two agree.
  auto bare = datasets::load_issue(db, *datasets::find_issue(db, "o/r", kCommented));
  auto stored = datasets::find_prediction(db, *datasets::find_issue(db, "o/r", kCommented));
  EXPECT_NE(triage.triage(bare).prediction.symptom_p, stored->symptom_p);
  EXPECT_EQ(triage.triage(triage.stored_issue("o/r", kCommented)).prediction.symptom, "hang");
}

TEST_F(TriageStore, ALabeledIssueFindsItselfFirstWithSimilarityOne) {
  datasets::Database db(db_path_);
  reports::Triage triage(db, model::default_model_dir(db_path_), catalog());
  for (int64_t number : {1, 25, 59}) {  // in scope (a number not divisible by 4)
    auto r = triage.triage(triage.stored_issue("o/r", number));
    ASSERT_EQ(r.similar.size(), 5u);
    EXPECT_EQ(r.similar[0].issue, "o/r#" + std::to_string(number));
    EXPECT_NEAR(r.similar[0].similarity, 1.0, 1e-12);
    EXPECT_EQ(r.similar[0].url, "https://github.com/o/r/issues/" + std::to_string(number));
    for (size_t i = 1; i < r.similar.size(); ++i) {
      EXPECT_LT(r.similar[i].similarity, 1.0);
      EXPECT_LE(r.similar[i].similarity, r.similar[i - 1].similarity);
    }
  }
  // The unlabeled issue is not in the index: nothing is similarity 1 and it is not among its neighbours; nor
  // is a labeled issue a person put out of scope (60): it is no case of the study, and no model learned it.
  for (int64_t number : {kCommented, int64_t{60}}) {
    auto r = triage.triage(triage.stored_issue("o/r", number));
    ASSERT_FALSE(r.similar.empty());
    EXPECT_LT(r.similar[0].similarity, 1.0) << number;
    for (const auto& c : r.similar) EXPECT_NE(c.issue, "o/r#" + std::to_string(number));
  }
  // Final labels are what the neighbours carry: issues 1-20 are hangs of the mixed corpus.
  auto one = triage.triage(triage.stored_issue("o/r", 1));
  EXPECT_EQ(one.similar[0].symptom, "hang");
  EXPECT_EQ(one.similar[0].root_cause, "concurrency_error");
  // And the triaged issue's own final label is shown beside the prediction; the unlabeled one has none.
  ASSERT_TRUE(one.final_label);
  EXPECT_EQ(one.final_label->symptom + "/" + one.final_label->root_cause, "hang/concurrency_error");
  EXPECT_EQ(reports::triage_json(one)["final_label"]["root_cause"], "concurrency_error");
  EXPECT_NE(reports::triage_text(one).find("final label: hang / concurrency_error ("), std::string::npos);
  auto unlabeled = triage.triage(triage.stored_issue("o/r", kCommented));
  EXPECT_FALSE(unlabeled.final_label);
  EXPECT_TRUE(reports::triage_json(unlabeled)["final_label"].is_null());
  EXPECT_EQ(reports::triage_text(unlabeled).find("final label:"), std::string::npos);
}

TEST_F(TriageStore, ReproducersOfTheMostSimilarModeledCaseAndOfThePredictedRootCauseWithTheirLastSuite) {
  datasets::Database db(db_path_);
  reports::Triage before(db, model::default_model_dir(db_path_), catalog());
  auto hang = before.triage(before.stored_issue("o/r", 5));
  ASSERT_EQ(hang.prediction.root_cause, "concurrency_error");
  // Issue 3 is the only case a reproducer was modeled on.
  ASSERT_EQ(hang.similar_modeled.size(), 1u);
  EXPECT_EQ(hang.similar_modeled[0].reproducer.id, "hang-repro");
  EXPECT_EQ(hang.similar_modeled[0].modeled_on.issue, "o/r#3");
  EXPECT_GT(hang.similar_modeled[0].modeled_on.similarity, 0.0);
  // A modeled case is named only among the similar issues shown: for the others' issues (crashes, and the
  // rest of the mixed corpus) #3 is far down, and naming its reproducer said nothing.
  int not_shown = 0;
  for (int64_t number = 21; number <= 60; ++number) {
    auto r = before.triage(before.stored_issue("o/r", number));
    const bool shown = std::any_of(r.similar.begin(), r.similar.end(),
                                   [](const reports::SimilarCase& c) { return c.issue == "o/r#3"; });
    EXPECT_EQ(r.similar_modeled.empty(), !shown) << number;
    if (!shown) {
      ++not_shown;
      EXPECT_NE(reports::triage_text(r).find("reproducer modeled on a similar case: none (none of the 5 most "
                                             "similar labeled issues has one)"),
                std::string::npos);
    }
  }
  EXPECT_GT(not_shown, 0);
  ASSERT_EQ(hang.root_cause_reproducers.size(), 2u);
  EXPECT_EQ(hang.root_cause_reproducers[0].id, "hang-repro");
  EXPECT_EQ(hang.root_cause_reproducers[1].id, "hang-other");
  for (const auto& r : hang.root_cause_reproducers) EXPECT_TRUE(r.last_suite.empty()) << r.id;  // never run

  // A suite run, and a `faultline link` of crash-repro to issue 5 itself (the most similar case to itself).
  faultline::testing::TempDir copy;
  std::filesystem::copy_file(db_path_, copy.file("store.db"));
  datasets::Database db2(copy.file("store.db"));
  db2.transaction([&] {
    int64_t run = datasets::start_suite_run(db2, "host", 1);
    datasets::SuiteResult r;
    r.repro_id = "hang-repro";
    r.variant = "buggy";
    r.mode = "host";
    r.outcome = "reproduced";
    datasets::record_suite_result(db2, run, r);
    datasets::link_reproducer(db2, *datasets::find_issue(db2, "o/r", 5), "crash-repro");
  });
  reports::Triage after(db2, model::default_model_dir(db_path_), catalog());
  auto linked = after.triage(after.stored_issue("o/r", 5));
  ASSERT_EQ(linked.similar_modeled.size(), 1u);
  EXPECT_EQ(linked.similar_modeled[0].reproducer.id, "crash-repro");
  EXPECT_EQ(linked.similar_modeled[0].modeled_on.issue, "o/r#5");
  ASSERT_EQ(linked.root_cause_reproducers.size(), 2u);
  ASSERT_EQ(linked.root_cause_reproducers[0].last_suite.size(), 1u);
  EXPECT_EQ(linked.root_cause_reproducers[0].last_suite[0].outcome, "reproduced");
  EXPECT_TRUE(linked.root_cause_reproducers[1].last_suite.empty());
  std::string text = reports::triage_text(linked);
  EXPECT_NE(text.find("hang-repro: A hang; last suite: host buggy reproduced"), std::string::npos) << text;
  EXPECT_NE(text.find("hang-other: Another hang; last suite: never run"), std::string::npos) << text;
}

TEST_F(TriageStore, JsonKeysAreTheDocumentedOnes) {
  datasets::Database db(db_path_);
  reports::Triage triage(db, model::default_model_dir(db_path_), catalog());
  auto j = reports::triage_json(triage.triage(triage.stored_issue("o/r", 5)));
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"final_label", "issue", "label_thresholds", "model_version", "moved_by",
                                      "queue_standing", "queued", "root_cause", "root_cause_reproducers",
                                      "rules_fired", "scope", "similar", "similar_case_reproducers",
                                      "symptom", "tokens_distinct", "tokens_tried"}));
  EXPECT_EQ(j["symptom"].size(), 3u);
  EXPECT_TRUE(j["symptom"].contains("label") && j["symptom"].contains("p") &&
              j["symptom"]["distribution"].is_object());
  EXPECT_TRUE(j["moved_by"].contains("scope") && j["moved_by"].contains("symptom") &&
              j["moved_by"].contains("root_cause"));
  ASSERT_FALSE(j["moved_by"]["symptom"].empty());
  EXPECT_TRUE(j["moved_by"]["symptom"][0].contains("token") && j["moved_by"]["symptom"][0].contains("drop"));
  for (const char* k : {"issue", "url", "symptom", "root_cause", "similarity"})
    EXPECT_TRUE(j["similar"][0].contains(k)) << k;
  for (const char* k : {"id", "title", "last_suite", "modeled_on"})
    EXPECT_TRUE(j["similar_case_reproducers"][0].contains(k)) << k;
}

TEST_F(TriageStore, AnUnknownIssueOrAMissingModelIsAOneLineError) {
  datasets::Database db(db_path_);
  reports::Triage triage(db, model::default_model_dir(db_path_), catalog());
  try {
    triage.stored_issue("o/r", 9999);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "triage: issue o/r#9999 is not in the store (import or mine it first)");
  }
  faultline::testing::TempDir empty;
  try {
    reports::Triage none(db, empty.file("models"), catalog());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no trained model here"), std::string::npos) << e.what();
  }
}

TEST_F(TriageStore, AnIssueSharingNoTokenWithTheLabeledOnesHasNoSimilarIssue) {
  datasets::Database db(db_path_);
  reports::Triage triage(db, model::default_model_dir(db_path_), catalog());
  datasets::IssueRecord foreign;
  foreign.repo = "x/y";  // another repository: not even the repository token is shared
  foreign.number = 1;
  foreign.url = "https://github.com/x/y/issues/1";
  foreign.state = "open";
  foreign.title = "zebra quokka";
  auto r = triage.triage(foreign);
  EXPECT_TRUE(r.similar.empty());
  EXPECT_TRUE(r.similar_modeled.empty());
  EXPECT_NE(reports::triage_text(r).find("  none shares a token with it\n"), std::string::npos);
  // One shared word, and issues come back: each one holding that word.
  foreign.title += " deadlock";
  auto one = triage.triage(foreign);
  ASSERT_FALSE(one.similar.empty());
  const auto corpus = faultline::testing::mixed_corpus();
  for (const auto& c : one.similar) {
    auto it =
        std::find_if(corpus.begin(), corpus.end(), [&](const auto& l) { return l.issue.key() == c.issue; });
    ASSERT_NE(it, corpus.end()) << c.issue;
    EXPECT_NE((it->issue.title + " " + it->issue.body).find("deadlock"), std::string::npos) << c.issue;
  }
}

// A person is asked only where the model abstains on an issue without a manual label that no person put out
// of scope; the store's word on an issue holds for a record of it that lacks its own.
TEST_F(TriageStore, APersonIsAskedOnlyWhereTheModelAbstainsOnAnIssueNoPersonDecided) {
  faultline::testing::TempDir copy;
  std::filesystem::copy_file(db_path_, copy.file("store.db"));
  datasets::Database db(copy.file("store.db"));
  // Issue 62: unlabeled, and a person put it out of scope.
  datasets::IssueRecord out_of_scope = datasets::load_issue(db, *datasets::find_issue(db, "o/r", kCommented));
  out_of_scope.number = 62;
  out_of_scope.url = "https://github.com/o/r/issues/62";
  out_of_scope.scope = "out";
  out_of_scope.scope_reason = "a framework bug";
  datasets::upsert_issue(db, out_of_scope);
  using annotation::QueueStanding;
  const int64_t commented_id = *datasets::find_issue(db, "o/r", kCommented);

  // Issue 61 is open, which the built-in rules screen out; a stored issue stands as the store's screening
  // says: none yet, then a candidate (as a screen with other rules could make it), then excluded.
  {
    reports::Triage unscreened(db, model::default_model_dir(db_path_), catalog());
    EXPECT_EQ(unscreened.triage(unscreened.stored_issue("o/r", kCommented)).queue,
              QueueStanding::kNotScreened);
    EXPECT_NE(
        reports::triage_text(unscreened.triage(unscreened.stored_issue("o/r", kCommented)))
            .find(
                "would not be queued: not screened since it was stored or changed (run 'faultline screen')"),
        std::string::npos);
  }
  datasets::replace_screening(db, {{commented_id, "candidate", "title:error"}});
  {
    reports::Triage candidate(db, model::default_model_dir(db_path_), catalog());
    auto r = candidate.triage(candidate.stored_issue("o/r", kCommented));
    EXPECT_EQ(r.queue, r.prediction.abstain ? QueueStanding::kQueued : QueueStanding::kModelLabels);
  }
  datasets::replace_screening(db, {{commented_id, "excluded", "state:open"}});
  reports::Triage triage(db, model::default_model_dir(db_path_), catalog());

  auto labeled = triage.stored_issue("o/r", 1);
  EXPECT_EQ(triage.triage(labeled).queue, QueueStanding::kManualLabel);
  labeled.repo = "O/R";  // the same issue, its repository's name in another case
  EXPECT_EQ(triage.triage(labeled).queue, QueueStanding::kManualLabel);

  // Issue 61 screening excluded (open); a record of it that a person puts in scope stands as its thresholds
  // say, as an import of it would.
  auto open_issue = triage.stored_issue("o/r", kCommented);
  EXPECT_EQ(triage.triage(open_issue).queue, QueueStanding::kNotCandidate);
  open_issue.scope = "in";
  auto in_scope = triage.triage(open_issue);
  EXPECT_EQ(in_scope.queue,
            in_scope.prediction.abstain ? QueueStanding::kQueued : QueueStanding::kModelLabels);

  auto stored = triage.stored_issue("o/r", 62);
  EXPECT_EQ(triage.triage(stored).queue, QueueStanding::kOutOfScope);
  stored.scope.reset();  // a record of it without a scope decision keeps the store's
  EXPECT_EQ(triage.triage(stored).queue, QueueStanding::kOutOfScope);

  // Not in the store: screened here. Open, it is no candidate (the study screens open issues out).
  stored.number = 999;
  stored.url = "https://github.com/o/r/issues/999";
  stored.state = "open";
  EXPECT_EQ(triage.triage(stored).queue, QueueStanding::kNotCandidate);
  EXPECT_NE(reports::triage_text(triage.triage(stored)).find("would not be queued: screening excluded it"),
            std::string::npos);
  // Closed, with a failure named in its title and no scope decision: the model's thresholds decide, as
  // computed here from the probabilities and the thresholds shown.
  stored.state = "closed";
  stored.title = "kernel crash: deadlock at the barrier";
  auto r = triage.triage(stored);
  const bool under =
      r.prediction.symptom_p < r.symptom_threshold || r.prediction.root_cause_p < r.root_cause_threshold;
  EXPECT_EQ(r.queue, under ? QueueStanding::kQueued : QueueStanding::kModelLabels);
  EXPECT_EQ(reports::triage_json(r).at("queued"), under);
  stored.scope = "out";
  EXPECT_EQ(triage.triage(stored).queue, QueueStanding::kOutOfScope);
  EXPECT_NE(
      reports::triage_text(triage.triage(stored)).find("would not be queued: a person put it out of scope"),
      std::string::npos);
}
