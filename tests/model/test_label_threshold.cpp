#include <gtest/gtest.h>

#include <cmath>

#include "classifier/model/label_threshold.hpp"
#include "classifier/model/metrics.hpp"
#include "common/error.hpp"

using faultline::model::kLabelStandardErrors;
using faultline::model::label_nothing_threshold;
using faultline::model::label_threshold;
using faultline::model::score_labeled;
using faultline::model::wilson_lower_bound;

TEST(LabelThreshold, WilsonLowerBoundAsWorkedOut) {
  // 8 of 10 at z = 1: a = .8, z²/n = .1 → (.8 + .05 − √(.8·.2/10 + 1/400)) / 1.1 = (.85 − √.0185) / 1.1
  // = (.85 − .1360147) / 1.1 = .6490775. All of n right: (1 + z²/2n − z²/2n) / (1 + z²/n) = n / (n + z²),
  // 4/5 at n = 4. At z = 0 the bound is the accuracy itself.
  EXPECT_NEAR(wilson_lower_bound(8, 10, 1.0), 0.6490775, 1e-7);
  EXPECT_NEAR(wilson_lower_bound(4, 4, 1.0), 0.8, 1e-12);
  EXPECT_NEAR(wilson_lower_bound(8, 10, 0.0), 0.8, 1e-12);
  EXPECT_THROW(wilson_lower_bound(0, 0, 1.0), faultline::Error);
}

TEST(LabelThreshold, TheLargestTopShareWhoseBoundReachesTheAccuracy) {
  ASSERT_EQ(kLabelStandardErrors, 1.0);  // the bounds below are worked out at one standard error
  // Ten items, surest first: five right, one wrong, four right. Bounds at z = 1 (n/(n+1) while all are
  // right): top 5: 5/6 = .8333 ≥ .8; top 6 (5 of 6): (5/6 + 1/12 − √(5/216 + 1/144)) / (7/6) = .6370; top 10
  // (9 of 10):
  // (.9 + .05 − √(.009 + .0025)) / 1.1 = .7661. Asked .8, the threshold is the fifth item's probability. The
  // accuracy alone (no bound) would take all ten (9/10 ≥ .8): the bound is what holds the threshold there.
  const std::vector<double> p{0.99, 0.97, 0.95, 0.93, 0.91, 0.89, 0.87, 0.85, 0.83, 0.81};
  const std::vector<bool> right{true, true, true, true, true, false, true, true, true, true};
  EXPECT_DOUBLE_EQ(label_threshold(p, right, 0.8), 0.91);
  // The order the items come in does not matter.
  EXPECT_DOUBLE_EQ(label_threshold({0.81, 0.91, 0.99, 0.97, 0.95, 0.93, 0.89, 0.87, 0.85, 0.83},
                                   {true, true, true, true, true, true, false, true, true, true}, 0.8),
                   0.91);
  // Asked .75, the top 10 (.7661) reaches it: every item is labeled.
  EXPECT_DOUBLE_EQ(label_threshold(p, right, 0.75), 0.81);
  // Asked 0, every item: the lowest probability.
  EXPECT_DOUBLE_EQ(label_threshold({0.7, 0.3}, {false, false}, 0.0), 0.3);
}

TEST(LabelThreshold, EqualProbabilitiesAreLabeledTogetherOrNotAtAll) {
  // Two items at .9 (one right, one wrong), then a right one at .8. Alone, the right .9 would have a bound
  // of 1/2 ≥ .45; but a threshold of .9 labels both: (1/2 + 1/4 − √(1/8 + 1/16)) / 1.5 = .2113, and all
  // three (2 of 3): (2/3 + 1/6 − √(2/27 + 1/36)) / (4/3) = .3856. Neither reaches .45: nothing is labeled,
  // and the threshold is above every probability, 1 included.
  const double t = label_threshold({0.9, 0.9, 0.8}, {true, false, true}, 0.45);
  EXPECT_EQ(t, label_nothing_threshold());
  // Whichever of the equal items comes first.
  EXPECT_EQ(label_threshold({0.9, 0.9, 0.8}, {false, true, true}, 0.45), label_nothing_threshold());
  EXPECT_GT(t, 1.0);
  EXPECT_FALSE(1.0 >= t);
}

TEST(LabelThreshold, BadInputIsAClearError) {
  EXPECT_THROW(label_threshold({}, {}, 0.5), faultline::Error);
  EXPECT_THROW(label_threshold({0.5}, {true, false}, 0.5), faultline::Error);
  EXPECT_THROW(label_threshold({0.5}, {true}, 1.5), faultline::Error);
  EXPECT_THROW(label_threshold({0.5}, {true}, std::nan("")), faultline::Error);
  EXPECT_THROW(label_threshold({0.5, std::nan("")}, {true, true}, 0.5), faultline::Error);
  EXPECT_THROW(label_threshold({1.5}, {true}, 0.5), faultline::Error);
}

TEST(LabelThreshold, WhatAClassifierLabelsByItsOwnChoiceAsCounted) {
  // Labeled: items 0, 2 and 3, of which 0 and 3 are right → 3 of 5 labeled (.6), accuracy 2/3.
  auto s =
      score_labeled({"a", "b", "a", "b", "a"}, {"a", "a", "b", "b", "b"}, {true, false, true, true, false});
  EXPECT_EQ(s.labeled, 3);
  EXPECT_DOUBLE_EQ(s.coverage, 0.6);
  EXPECT_NEAR(s.accuracy, 2.0 / 3.0, 1e-12);
  auto none = score_labeled({"a"}, {"a"}, {false});
  EXPECT_EQ(none.labeled, 0);
  EXPECT_TRUE(std::isnan(none.accuracy));  // none labeled: no accuracy, not an accuracy of 0
}
