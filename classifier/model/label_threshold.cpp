#include "classifier/model/label_threshold.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/error.hpp"

namespace faultline::model {

double label_nothing_threshold() { return std::nextafter(1.0, 2.0); }

double wilson_lower_bound(int right, int items, double z) {
  if (items <= 0) throw Error("label threshold: a share of no items has no accuracy");
  const double n = items, a = right / n, z2 = z * z;
  return (a + z2 / (2 * n) - z * std::sqrt(a * (1 - a) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

double label_threshold(const std::vector<double>& probability, const std::vector<bool>& right,
                       double accuracy) {
  if (probability.empty() || probability.size() != right.size())
    throw Error("label threshold: need one right-or-wrong for each of a non-empty list of probabilities");
  if (!(accuracy >= 0 && accuracy <= 1)) throw Error("label threshold: the accuracy must be 0 to 1");
  // A NaN would leave the sort without an order.
  for (double p : probability) {
    if (!(p >= 0 && p <= 1)) throw Error("label threshold: a probability must be 0 to 1");
  }
  std::vector<size_t> order(probability.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return probability[a] > probability[b]; });
  double threshold = label_nothing_threshold();
  int hits = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    hits += right[order[k]];
    // A share ends only where the probability changes: equal items are labeled together or not at all.
    const bool share_ends = k + 1 == order.size() || probability[order[k + 1]] < probability[order[k]];
    if (share_ends &&
        wilson_lower_bound(hits, static_cast<int>(k + 1), kLabelStandardErrors) >= accuracy - 1e-9)
      threshold = probability[order[k]];
  }
  return threshold;
}

}  // namespace faultline::model
