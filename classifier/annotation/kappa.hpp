// Agreement statistics for categorical labels: Cohen's kappa (two raters) and Fleiss' kappa (more).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace faultline::annotation {

struct Agreement {
  int n = 0;
  double observed = 0;  // p_o: share of items with the same label
  double expected = 0;  // p_e: agreement expected by chance from each rater's marginals
  // (p_o - p_e) / (1 - p_e). When p_e = 1 (both raters used one and the same category for every item)
  // it is 0/0: chance alone explains all the agreement, so none beyond chance can be measured. Then
  // `defined` is false and kappa, its standard error and interval are NaN (JSON writes null).
  bool defined = true;
  double kappa = 0;
  // Large-sample standard error sqrt(p_o (1 - p_o) / (n (1 - p_e)^2)).
  double standard_error = 0;
  double ci_low = 0;  // kappa ± 1.96 SE, clipped to [-1, 1]
  double ci_high = 0;
  // Specific agreement per category: 2·n_cc / (row_c + col_c), over the categories either rater used.
  std::map<std::string, double> per_category;
  // confusion[a][b]: items rater 1 labeled a and rater 2 labeled b.
  std::map<std::string, std::map<std::string, int>> confusion;
};

// Throws faultline::Error when the lists differ in length or are empty.
Agreement cohen_kappa(const std::vector<std::string>& rater1, const std::vector<std::string>& rater2);

// Fleiss' kappa for items each labeled by the same number (≥ 2) of raters; labels[item][rater].
// NaN when P̄e = 1 (every label of every rater is one category), as Cohen's is undefined there.
double fleiss_kappa(const std::vector<std::vector<std::string>>& labels);

}  // namespace faultline::annotation
