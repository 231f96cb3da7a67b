// The reference both harnesses compare with, computed another way than the kernel's head mapping: the KV
// heads are first repeated group-size times each (PyTorch's repeat_interleave, how reference
// implementations run grouped-query attention), then every query head runs plain attention, in double,
// over the expanded head at its own index.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "dispatch.cuh"

inline std::vector<double> repeated_kv_attention(int query_heads) {
  std::vector<int> expanded;  // expanded[h]: the KV head whose copy sits at index h
  for (int kv = 0; kv < kKvHeads; ++kv) {
    for (int copy = 0; copy < query_heads / kKvHeads; ++copy) expanded.push_back(kv);
  }
  std::vector<double> out(static_cast<size_t>(query_heads) * kHeadDim, 0.0);
  for (int h = 0; h < query_heads; ++h) {
    std::vector<double> w(kKeys);
    for (int k = 0; k < kKeys; ++k) {
      w[k] = 0;
      for (int d = 0; d < kHeadDim; ++d) w[k] += double(query_at(h, d)) * double(key_at(expanded[h], k, d));
    }
    const double top = *std::max_element(w.begin(), w.end());
    double total = 0;
    for (double& x : w) total += (x = std::exp(x - top));
    for (int k = 0; k < kKeys; ++k) {
      for (int d = 0; d < kHeadDim; ++d)
        out[h * kHeadDim + d] += w[k] / total * double(value_at(expanded[h], k, d));
    }
  }
  return out;
}

// Query heads whose output differs from the reference by more than float rounding.
inline int heads_off_reference(const std::vector<float>& out, int query_heads) {
  const std::vector<double> ref = repeated_kv_attention(query_heads);
  int wrong = 0;
  for (int h = 0; h < query_heads; ++h) {
    bool off = false;
    for (int d = 0; d < kHeadDim; ++d) {
      const double tolerance = 1e-5 * std::max(1.0, std::fabs(ref[h * kHeadDim + d]));
      off = off || std::fabs(out[h * kHeadDim + d] - ref[h * kHeadDim + d]) > tolerance;
    }
    wrong += off;
  }
  return wrong;
}
