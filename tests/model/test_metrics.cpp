#include <gtest/gtest.h>

#include "classifier/model/metrics.hpp"

using faultline::model::score_axis;

TEST(Metrics, HandWorkedFourItemExample) {
  // gold a a b b, predicted a b b b, confidence .9 .6 .8 .7.
  // accuracy 3/4. F1(a): tp 1, fp 0, fn 1 → 2/3; F1(b): tp 2, fp 1, fn 0 → 4/5; macro = (2/3 + 4/5)/2 =
  // 11/15. kappa: p_o = .75; gold a .5 b .5, predicted a .25 b .75 → p_e = .125 + .375 = .5 → kappa = .5. By
  // confidence: .9 ✓ .8 ✓ .7 ✓ .6 ✗ → the top 3 are all right, all 4 only 75% → coverage at 0.9 = 3/4. ECE:
  // each item alone in its bin: (|1-.9| + |1-.8| + |1-.7| + |0-.6|) / 4 = 1.2 / 4 = .3.
  auto m = score_axis({"a", "a", "b", "b"}, {"a", "b", "b", "b"}, {0.9, 0.6, 0.8, 0.7});
  EXPECT_DOUBLE_EQ(m.accuracy, 0.75);
  EXPECT_NEAR(m.macro_f1, 11.0 / 15.0, 1e-12);
  EXPECT_NEAR(m.kappa, 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(m.coverage_at_90, 0.75);
  EXPECT_NEAR(m.expected_calibration_error, 0.3, 1e-12);
  EXPECT_EQ(m.confusion["a"]["b"], 1);
  EXPECT_EQ(m.confusion["b"]["b"], 2);
}

TEST(Metrics, ClassPredictedButNeverTrueCountsAsZeroInMacroF1) {
  // gold a a, predicted a c: F1(a) = 2·1/(2+0+1) = 2/3, F1(c) = 0 → macro = 1/3.
  auto m = score_axis({"a", "a"}, {"a", "c"});
  EXPECT_NEAR(m.macro_f1, 1.0 / 3.0, 1e-12);
  EXPECT_TRUE(m.reliability.empty());  // no confidences given
}

TEST(Metrics, ThresholdTableAndSelectiveAccuracyAsWorkedOut) {
  // The four items above: gold a a b b, predicted a b b b, confidence .9 .6 .8 .7 (only the .6 is wrong).
  auto m = score_axis({"a", "a", "b", "b"}, {"a", "b", "b", "b"}, {0.9, 0.6, 0.8, 0.7});
  ASSERT_EQ(m.thresholds.size(), 18u);  // 0.05 … 0.90
  const auto& at_60 = m.thresholds[11];
  EXPECT_DOUBLE_EQ(at_60.threshold, 0.6);  // inclusive: all four are labeled
  EXPECT_EQ(at_60.labeled, 4);
  EXPECT_DOUBLE_EQ(at_60.accuracy, 0.75);
  EXPECT_NEAR(at_60.macro_f1, 11.0 / 15.0, 1e-12);
  const auto& at_65 = m.thresholds[12];  // .9 .8 .7: all right, gold a b b → F1 1 for both classes
  EXPECT_EQ(at_65.labeled, 3);
  EXPECT_DOUBLE_EQ(at_65.coverage, 0.75);
  EXPECT_DOUBLE_EQ(at_65.accuracy, 1.0);
  EXPECT_DOUBLE_EQ(at_65.macro_f1, 1.0);
  EXPECT_EQ(m.thresholds[17].labeled, 1);  // 0.90 keeps the .9 item
  // Most confident shares: ceil(.2·4) = 1, ceil(.4·4) = 2, ceil(.6·4) = 3 items all right; 4 items 3/4.
  ASSERT_EQ(m.selective.size(), 5u);
  EXPECT_EQ(m.selective[1].labeled, 2);
  EXPECT_DOUBLE_EQ(m.selective[1].accuracy, 1.0);
  EXPECT_EQ(m.selective[2].labeled, 3);
  EXPECT_DOUBLE_EQ(m.selective[2].accuracy, 1.0);
  EXPECT_EQ(m.selective[3].labeled, 4);
  EXPECT_DOUBLE_EQ(m.selective[3].accuracy, 0.75);
}

TEST(Metrics, AThresholdAboveEveryConfidenceLabelsNothing) {
  auto m = score_axis({"a", "b"}, {"a", "a"}, {0.3, 0.2});
  EXPECT_EQ(m.thresholds[5].labeled, 1);  // 0.30: the .3 item
  EXPECT_EQ(m.thresholds[6].labeled, 0);  // 0.35
  EXPECT_DOUBLE_EQ(m.thresholds[6].coverage, 0.0);
  EXPECT_DOUBLE_EQ(m.thresholds[6].accuracy, 0.0);
}
