// The probability from which a classifier labels an item, chosen so that what it labels is right as often
// as asked: selective labeling with a stated accuracy.
#pragma once

#include <vector>

namespace faultline::model {

// How many standard errors under a share's accuracy its threshold is judged by. The items a threshold is
// chosen on also chose the ensemble's weights, so their accuracy flatters the model: judged by the accuracy
// itself, the root cause's thresholds labeled issues they had not seen right 0.836 of the time against an
// asked 0.85, and at one standard error 0.871 (classifier/EXPERIMENTS.md).
constexpr double kLabelStandardErrors = 1.0;

// The lower end of the Wilson score interval of `right` successes in `items` at `z` standard errors
// (Wilson, 1927): (a + z²/2n − z·√(a(1−a)/n + z²/4n²)) / (1 + z²/n), a = right/n. At z = 0 it is a.
double wilson_lower_bound(int right, int items, double z);

// What a threshold above every probability is: an axis that labels nothing.
double label_nothing_threshold();
// Whether an axis with this threshold labels nothing (any threshold above 1, label_nothing_threshold() among
// them).
inline bool labels_nothing(double threshold) { return threshold > 1; }

// Items are ranked by `probability`, equal probabilities together. The threshold is the probability of the
// last item of the largest top share whose accuracy (the share of its items that are `right`), less
// kLabelStandardErrors standard errors (wilson_lower_bound), is still at least `accuracy`; the items at or
// above it are that share. No top share reaches it: label_nothing_threshold(). An empty list, or an
// accuracy or a probability outside 0 to 1, is an error.
double label_threshold(const std::vector<double>& probability, const std::vector<bool>& right,
                       double accuracy);

}  // namespace faultline::model
