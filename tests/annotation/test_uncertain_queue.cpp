#include <gtest/gtest.h>

#include <cmath>

#include "classifier/annotation/uncertain_queue.hpp"

using namespace faultline::annotation;

TEST(UncertainQueue, OnlyAnAbstentionOnACandidateNoPersonExcludedIsQueued) {
  const std::optional<std::string> none, in = "in", out = "out";
  auto standing = [](bool abstains, bool final_label, std::optional<std::string> scope, bool candidate) {
    return queue_standing(abstains, LabelingState{final_label, std::move(scope), candidate});
  };
  EXPECT_EQ(standing(true, false, none, true), QueueStanding::kQueued);
  EXPECT_EQ(standing(true, false, in, true), QueueStanding::kQueued);
  EXPECT_EQ(standing(false, false, none, true), QueueStanding::kModelLabels);
  EXPECT_EQ(standing(false, false, in, true), QueueStanding::kModelLabels);
  // A manual label is in force whatever else holds; then a person's "out"; then screening.
  EXPECT_EQ(standing(true, true, none, false), QueueStanding::kManualLabel);
  EXPECT_EQ(standing(true, true, out, false), QueueStanding::kManualLabel);
  EXPECT_EQ(standing(false, true, in, true), QueueStanding::kManualLabel);
  EXPECT_EQ(standing(true, false, out, true), QueueStanding::kOutOfScope);
  EXPECT_EQ(standing(true, false, out, false), QueueStanding::kOutOfScope);
  EXPECT_EQ(standing(false, false, out, true), QueueStanding::kOutOfScope);
  EXPECT_EQ(standing(true, false, none, false), QueueStanding::kNotCandidate);
  EXPECT_EQ(standing(false, false, none, false), QueueStanding::kNotCandidate);
  // A person's "in" stands over a screening that did not make it a candidate (or has not seen it).
  EXPECT_EQ(standing(true, false, in, false), QueueStanding::kQueued);
  EXPECT_EQ(standing(false, false, in, false), QueueStanding::kModelLabels);
  EXPECT_EQ(queue_standing_name(QueueStanding::kQueued), "queued");
  EXPECT_EQ(queue_standing_name(QueueStanding::kOutOfScope), "out_of_scope");
  EXPECT_EQ(queue_standing_name(QueueStanding::kNotCandidate), "not_candidate");
  EXPECT_EQ(queue_standing_name(QueueStanding::kManualLabel), "manual_label");
  EXPECT_EQ(queue_standing_name(QueueStanding::kModelLabels), "model_labels");
}

TEST(UncertainQueue, OneIssuesStateIsACandidateOnlyWhenScreeningMadeItOne) {
  faultline::datasets::IssueRecord issue;
  issue.scope = "in";
  const auto state = [&](bool final_label, std::optional<faultline::datasets::ScreeningDecision> screening) {
    return labeling_state(issue, final_label, screening);
  };
  EXPECT_FALSE(state(false, std::nullopt).screening_candidate);  // not screened
  EXPECT_FALSE(
      state(false, faultline::datasets::ScreeningDecision{1, "excluded", "state:open"}).screening_candidate);
  const LabelingState candidate =
      state(true, faultline::datasets::ScreeningDecision{1, "candidate", "title:crash"});
  EXPECT_TRUE(candidate.screening_candidate);
  EXPECT_TRUE(candidate.has_final_label);
  EXPECT_EQ(candidate.human_scope, "in");
}

TEST(UncertainQueue, CountsAreTakenOnceEachAndOnlyAbstentionsAreLeftOut) {
  QueueCounts c;
  c.add(QueueStanding::kManualLabel, true);
  c.add(QueueStanding::kQueued, true);
  c.add(QueueStanding::kQueued, true);
  c.add(QueueStanding::kOutOfScope, true);
  c.add(QueueStanding::kOutOfScope, false);  // labeled by the model: nothing left out
  c.add(QueueStanding::kNotCandidate, true);
  c.add(QueueStanding::kModelLabels, false);
  EXPECT_EQ(c.manual, 1);
  EXPECT_EQ(c.queued, 2);
  EXPECT_EQ(c.abstained_excluded, 2);
}

TEST(UncertainQueue, TheClausesSayWhatIsQueuedAndWhatIsLeftOut) {
  EXPECT_EQ(queue_clause(0, 0), "no unlabeled issue queued as uncertain");
  EXPECT_EQ(queue_clause(0, 107),
            "no unlabeled issue queued as uncertain; 107 abstentions are not queued, on issues a person put "
            "out of scope or not screening candidates");
  EXPECT_EQ(queue_clause(1, 1),
            "1 unlabeled issue queued as uncertain (export them with 'faultline label export --rater NAME "
            "--queue uncertain --out uncertain.csv'); 1 abstention is not queued, on an issue a person put "
            "out of scope or not a screening candidate");
  EXPECT_EQ(queue_clause(27, 0).substr(0, 39), "27 unlabeled issues queued as uncertain");
  EXPECT_EQ(unclassified_clause(1),
            "1 issue has no prediction yet and is not in it (run 'faultline classify' to weigh it)");
  EXPECT_EQ(unclassified_clause(3),
            "3 issues have no prediction yet and are not in it (run 'faultline classify' to weigh them)");
  EXPECT_EQ(left_out_clause(2),
            "2 abstentions are not queued, on issues a person put out of scope or not screening candidates");
}

TEST(UncertainQueue, TheMarginIsTheAxisFurthestUnderItsThreshold) {
  faultline::datasets::Prediction p;
  p.symptom_p = 0.7;
  p.root_cause_p = 0.6;
  // Not stored: read as 1, so the margin is the lower probability less 1: min(0.7, 0.6) - 1 = -0.4.
  EXPECT_DOUBLE_EQ(label_margin(p), -0.4);
  // Symptom 0.7 - 0.95 = -0.25, root cause 0.6 - 0.5 = +0.1: the symptom decides.
  p.symptom_threshold = 0.95;
  p.root_cause_threshold = 0.5;
  EXPECT_DOUBLE_EQ(label_margin(p), -0.25);
  // Both reach theirs: the smaller surplus, 0.7 - 0.65 = 0.05 against 0.6 - 0.5 = 0.1.
  p.symptom_threshold = 0.65;
  EXPECT_NEAR(label_margin(p), 0.05, 1e-12);
  // A threshold just above 1 labels nothing; the margin stays finite and under 0.
  p.root_cause_threshold = std::nextafter(1.0, 2.0);
  EXPECT_NEAR(label_margin(p), -0.4, 1e-12);
  EXPECT_LT(label_margin(p), -0.4);
}
