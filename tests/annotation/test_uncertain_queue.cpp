#include <gtest/gtest.h>

#include <cmath>

#include "classifier/annotation/uncertain_queue.hpp"

using namespace faultline::annotation;

TEST(UncertainQueue, OnlyAnAbstentionWithoutAManualLabelOrAPersonsOutOfScopeIsQueued) {
  const std::optional<std::string> none, in = "in", out = "out";
  EXPECT_EQ(queue_standing(true, false, none), QueueStanding::kQueued);
  EXPECT_EQ(queue_standing(true, false, in), QueueStanding::kQueued);
  EXPECT_EQ(queue_standing(false, false, none), QueueStanding::kModelLabels);
  EXPECT_EQ(queue_standing(false, false, in), QueueStanding::kModelLabels);
  // A manual label is in force whatever the scope or the model says; a person's "out" wins over abstaining.
  EXPECT_EQ(queue_standing(true, true, none), QueueStanding::kManualLabel);
  EXPECT_EQ(queue_standing(true, true, out), QueueStanding::kManualLabel);
  EXPECT_EQ(queue_standing(false, true, in), QueueStanding::kManualLabel);
  EXPECT_EQ(queue_standing(true, false, out), QueueStanding::kOutOfScope);
  EXPECT_EQ(queue_standing(false, false, out), QueueStanding::kOutOfScope);
  EXPECT_EQ(queue_standing_name(QueueStanding::kQueued), "queued");
  EXPECT_EQ(queue_standing_name(QueueStanding::kOutOfScope), "out_of_scope");
  EXPECT_EQ(queue_standing_name(QueueStanding::kManualLabel), "manual_label");
  EXPECT_EQ(queue_standing_name(QueueStanding::kModelLabels), "model_labels");
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
