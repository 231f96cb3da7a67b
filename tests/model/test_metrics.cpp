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
