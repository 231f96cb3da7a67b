#include "classifier/annotation/kappa.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "common/error.hpp"

namespace faultline::annotation {

Agreement cohen_kappa(const std::vector<std::string>& rater1, const std::vector<std::string>& rater2) {
  if (rater1.size() != rater2.size()) throw Error("kappa: the two raters labeled different numbers of items");
  if (rater1.empty()) throw Error("kappa: no item was labeled by both raters");
  Agreement a;
  a.n = static_cast<int>(rater1.size());
  std::map<std::string, int> row, col;
  int same = 0;
  for (size_t i = 0; i < rater1.size(); ++i) {
    ++a.confusion[rater1[i]][rater2[i]];
    ++row[rater1[i]];
    ++col[rater2[i]];
    if (rater1[i] == rater2[i]) ++same;
  }
  const double n = a.n;
  a.observed = same / n;
  std::set<std::string> categories;
  for (const auto& [c, k] : row) categories.insert(c);
  for (const auto& [c, k] : col) categories.insert(c);
  for (const auto& c : categories) {
    a.expected += (row[c] / n) * (col[c] / n);
    int diagonal = a.confusion.count(c) && a.confusion[c].count(c) ? a.confusion[c][c] : 0;
    a.per_category[c] = 2.0 * diagonal / (row[c] + col[c]);
  }
  if (a.expected >= 1.0 - 1e-12) {
    a.defined = false;
    a.kappa = a.standard_error = a.ci_low = a.ci_high = std::numeric_limits<double>::quiet_NaN();
    return a;
  }
  a.kappa = (a.observed - a.expected) / (1.0 - a.expected);
  a.standard_error = std::sqrt(a.observed * (1.0 - a.observed) / (n * std::pow(1.0 - a.expected, 2)));
  a.ci_low = std::max(-1.0, a.kappa - 1.96 * a.standard_error);
  a.ci_high = std::min(1.0, a.kappa + 1.96 * a.standard_error);
  return a;
}

double fleiss_kappa(const std::vector<std::vector<std::string>>& labels) {
  if (labels.empty()) throw Error("kappa: no item was labeled by every rater");
  const size_t m = labels.front().size();
  if (m < 2) throw Error("kappa: Fleiss' kappa needs at least two raters per item");
  std::map<std::string, double> totals;
  double p_bar = 0;
  for (const auto& item : labels) {
    if (item.size() != m) throw Error("kappa: every item needs the same number of raters");
    std::map<std::string, int> counts;
    for (const auto& l : item) ++counts[l];
    double agreeing_pairs = 0;
    for (const auto& [c, k] : counts) {
      agreeing_pairs += static_cast<double>(k) * (k - 1);
      totals[c] += k;
    }
    p_bar += agreeing_pairs / (static_cast<double>(m) * (m - 1));
  }
  const double items = static_cast<double>(labels.size());
  p_bar /= items;
  double p_e = 0;
  for (const auto& [c, t] : totals) p_e += std::pow(t / (items * m), 2);
  if (p_e >= 1.0 - 1e-12) return std::numeric_limits<double>::quiet_NaN();
  return (p_bar - p_e) / (1.0 - p_e);
}

}  // namespace faultline::annotation
