// The expected attention row output, computed apart from the kernel's step: double precision, every
// column counted with a plain int loop, no bound variable at all.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

inline double reference_row_output(const std::vector<float>& scores, const std::vector<float>& values) {
  double row_max = -INFINITY;
  for (float s : scores) row_max = std::max(row_max, static_cast<double>(s));
  double denominator = 0, weighted = 0;
  for (size_t c = 0; c < scores.size(); ++c) {
    const double p = std::exp(static_cast<double>(scores[c]) - row_max);
    denominator += p;
    weighted += p * static_cast<double>(values[c]);
  }
  return weighted / denominator;
}
