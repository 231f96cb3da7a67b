// The reference both harnesses compare with, computed another way than either mask: ordinary causal
// self-attention over all kSeqK tokens, in double. That attention is square, so "a token sees itself and
// the tokens before it" has only one reading (key position <= query position), and what decoding the last
// seq_q tokens against the cache must return is its last seq_q rows.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "causal_mask.cuh"

using Row = std::array<double, kHeadDim>;

inline std::vector<Row> last_rows_of_full_causal_attention(int seq_q) {
  std::vector<Row> rows;
  for (int pos = kSeqK - seq_q; pos < kSeqK; ++pos) {
    std::vector<double> weight;
    double top = -INFINITY;
    for (int k = 0; k <= pos; ++k) {
      double s = 0;
      for (int d = 0; d < kHeadDim; ++d) s += double(query_at(pos, d)) * double(key_at(k, d));
      weight.push_back(s / std::sqrt(double(kHeadDim)));
      top = std::max(top, weight.back());
    }
    double total = 0;
    for (double& w : weight) total += (w = std::exp(w - top));
    Row row{};
    for (int k = 0; k <= pos; ++k) {
      for (int d = 0; d < kHeadDim; ++d) row[d] += weight[k] / total * double(value_at(k, d));
    }
    rows.push_back(row);
  }
  return rows;
}

// Rows of `out` (seq_q x kHeadDim floats) that differ from the reference by more than float rounding.
inline int rows_off_reference(const float* out, int seq_q) {
  const std::vector<Row> ref = last_rows_of_full_causal_attention(seq_q);
  int wrong = 0;
  for (int q = 0; q < seq_q; ++q) {
    bool off = false;
    for (int d = 0; d < kHeadDim; ++d) off = off || std::fabs(out[q * kHeadDim + d] - ref[q][d]) > 1e-4;
    wrong += off;
  }
  return wrong;
}
