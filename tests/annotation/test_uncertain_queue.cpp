#include <gtest/gtest.h>

#include <cmath>

#include "classifier/annotation/uncertain_queue.hpp"

using namespace faultline::annotation;

TEST(UncertainQueue, OnlyAnAbstentionOnACandidateNoPersonExcludedIsQueued) {
  const std::optional<std::string> none, in = "in", out = "out";
  const Screened yes = Screened::kCandidate, no = Screened::kExcluded, not_yet = Screened::kNotYet;
  auto standing = [](bool abstains, bool final_label, std::optional<std::string> scope, Screened screened) {
    return queue_standing(abstains, LabelingState{final_label, std::move(scope), screened});
  };
  EXPECT_EQ(standing(true, false, none, yes), QueueStanding::kQueued);
  EXPECT_EQ(standing(true, false, in, yes), QueueStanding::kQueued);
  EXPECT_EQ(standing(false, false, none, yes), QueueStanding::kModelLabels);
  EXPECT_EQ(standing(false, false, in, yes), QueueStanding::kModelLabels);
  // A manual label is in force whatever else holds; then a person's "out"; then screening.
  EXPECT_EQ(standing(true, true, none, no), QueueStanding::kManualLabel);
  EXPECT_EQ(standing(true, true, none, not_yet), QueueStanding::kManualLabel);
  EXPECT_EQ(standing(true, true, out, no), QueueStanding::kManualLabel);
  EXPECT_EQ(standing(false, true, in, yes), QueueStanding::kManualLabel);
  EXPECT_EQ(standing(true, false, out, yes), QueueStanding::kOutOfScope);
  EXPECT_EQ(standing(true, false, out, no), QueueStanding::kOutOfScope);
  EXPECT_EQ(standing(true, false, out, not_yet), QueueStanding::kOutOfScope);
  EXPECT_EQ(standing(false, false, out, yes), QueueStanding::kOutOfScope);
  EXPECT_EQ(standing(true, false, none, no), QueueStanding::kNotCandidate);
  EXPECT_EQ(standing(false, false, none, no), QueueStanding::kNotCandidate);
  EXPECT_EQ(standing(true, false, none, not_yet), QueueStanding::kNotScreened);
  EXPECT_EQ(standing(false, false, none, not_yet), QueueStanding::kNotScreened);
  // A person's "in" stands over a screening that did not make it a candidate or has not seen it.
  EXPECT_EQ(standing(true, false, in, no), QueueStanding::kQueued);
  EXPECT_EQ(standing(true, false, in, not_yet), QueueStanding::kQueued);
  EXPECT_EQ(standing(false, false, in, no), QueueStanding::kModelLabels);
  EXPECT_EQ(queue_standing_name(QueueStanding::kQueued), "queued");
  EXPECT_EQ(queue_standing_name(QueueStanding::kOutOfScope), "out_of_scope");
  EXPECT_EQ(queue_standing_name(QueueStanding::kNotScreened), "not_screened");
  EXPECT_EQ(queue_standing_name(QueueStanding::kNotCandidate), "not_candidate");
  EXPECT_EQ(queue_standing_name(QueueStanding::kManualLabel), "manual_label");
  EXPECT_EQ(queue_standing_name(QueueStanding::kModelLabels), "model_labels");
}

TEST(UncertainQueue, OneIssuesStateIsWhatScreeningDecidedOfIt) {
  faultline::datasets::IssueRecord issue;
  issue.scope = "in";
  const auto state = [&](bool final_label, std::optional<faultline::datasets::ScreeningDecision> screening) {
    return labeling_state(issue, final_label, screening);
  };
  EXPECT_EQ(state(false, std::nullopt).screened, Screened::kNotYet);
  EXPECT_EQ(state(false, faultline::datasets::ScreeningDecision{1, "excluded", "state:open"}).screened,
            Screened::kExcluded);
  const LabelingState candidate =
      state(true, faultline::datasets::ScreeningDecision{1, "candidate", "title:crash"});
  EXPECT_EQ(candidate.screened, Screened::kCandidate);
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
  c.add(QueueStanding::kNotScreened, true);
  c.add(QueueStanding::kNotScreened, false);
  c.add(QueueStanding::kModelLabels, false);
  EXPECT_EQ(c.manual, 1);
  EXPECT_EQ(c.queued, 2);
  EXPECT_EQ(c.abstained_excluded, 2);
  EXPECT_EQ(c.abstained_unscreened, 1);
}

TEST(UncertainQueue, TheClausesSayWhatIsQueuedAndWhatIsLeftOut) {
  const auto counts = [](int queued, int excluded, int unscreened) {
    return QueueCounts{0, queued, excluded, unscreened};
  };
  EXPECT_EQ(queue_clause(counts(0, 0, 0)), "no unlabeled issue queued as uncertain");
  EXPECT_EQ(queue_clause(counts(0, 107, 0)),
            "no unlabeled issue queued as uncertain; 107 abstentions are not queued, on issues a person put "
            "out of scope or screening excluded");
  EXPECT_EQ(queue_clause(counts(1, 1, 0)),
            "1 unlabeled issue queued as uncertain (export them with 'faultline label export --rater NAME "
            "--queue uncertain --out uncertain.csv'); 1 abstention is not queued, on an issue a person put "
            "out of scope or screening excluded");
  EXPECT_EQ(queue_clause(counts(27, 0, 0)).substr(0, 39), "27 unlabeled issues queued as uncertain");
  EXPECT_EQ(queue_clause(counts(0, 0, 1)),
            "no unlabeled issue queued as uncertain; 1 abstention waits for its issue to be screened (run "
            "'faultline screen', with the rules it last ran with, to queue the candidates among them)");
  EXPECT_EQ(unclassified_clause(1),
            "1 issue has no prediction yet and is not in it (run 'faultline classify' to weigh it)");
  EXPECT_EQ(unclassified_clause(3),
            "3 issues have no prediction yet and are not in it (run 'faultline classify' to weigh them)");
  EXPECT_EQ(left_out_clause(counts(0, 0, 0)), "");
  EXPECT_EQ(left_out_clause(counts(5, 2, 4)),
            "2 abstentions are not queued, on issues a person put out of scope or screening excluded; "
            "4 abstentions wait for their issues to be screened (run 'faultline screen', with the rules it "
            "last ran with, to queue the candidates among them)");
  EXPECT_EQ(unclassified_unscreened_clause(1),
            "1 issue has neither a screening decision nor a prediction yet (run 'faultline screen', with the "
            "rules it last ran with, then 'faultline classify', to weigh it)");
  EXPECT_EQ(unclassified_unscreened_clause(2),
            "2 issues have neither a screening decision nor a prediction yet (run 'faultline screen', with the "
            "rules it last ran with, then 'faultline classify', to weigh them)");
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
