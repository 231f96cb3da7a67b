// Mechanism: the decode kernel is instantiated only for grouped-query group sizes 1, 2, 4 and 8, and the
// dispatcher raises "Unsupported group_size" for anything else. A model with 12 query heads over 4 KV heads
// (group size 3) crashes before launch.
// Source: https://github.com/flashinfer-ai/flashinfer/issues/258
// Fix: add a variant that takes the group size at run time for the sizes without a specialised kernel.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include "portability.hpp"

constexpr int kDefaultQueryHeads = 12;
constexpr int kKvHeads = 4;
constexpr int kKeys = 16;
constexpr int kHeadDim = 8;
constexpr int kRuntimeGroupVariant = 0;

// Inputs by head, key position and dimension.
FL_HD inline float query_at(int head, int d) {
  return 0.1f * static_cast<float>((head * 5 + d * 3) % 11) - 0.5f;
}
FL_HD inline float key_at(int kv_head, int pos, int d) {
  return 0.1f * static_cast<float>((kv_head * 7 + pos * 3 + d) % 13) - 0.6f;
}
FL_HD inline float value_at(int kv_head, int pos, int d) {
  return static_cast<float>(kv_head * 100 + pos) + 0.01f * static_cast<float>(d);
}

// One query head's decode step (the work of one CTA): attention over the kKeys cached keys of the KV head
// its group shares. kGroup is the compile-time group size of a specialised kernel, 0 for the run-time one.
template <int kGroup>
FL_HD inline void decode_head(int query_head, int runtime_group, float* out) {
  const int group = kGroup != 0 ? kGroup : runtime_group;
  const int kv = query_head / group;
  float s[kKeys];
  float m = -INFINITY;
  for (int k = 0; k < kKeys; ++k) {
    s[k] = 0.f;
    for (int d = 0; d < kHeadDim; ++d) s[k] += query_at(query_head, d) * key_at(kv, k, d);
    m = fmaxf(m, s[k]);
  }
  float den = 0.f;
  for (int d = 0; d < kHeadDim; ++d) out[d] = 0.f;
  for (int k = 0; k < kKeys; ++k) {
    float p = expf(s[k] - m);
    den += p;
    for (int d = 0; d < kHeadDim; ++d) out[d] += p * value_at(kv, k, d);
  }
  for (int d = 0; d < kHeadDim; ++d) out[d] /= den;
}

// The library's dispatcher (host code): the variant for a head configuration, the group size itself for
// the specialised kernels. Raises as the library does when there is none.
inline int dispatch_group_size(int query_heads, int kv_heads) {
  const int group_size = query_heads / kv_heads;
  switch (group_size) {
    case 1:
    case 2:
    case 4:
    case 8:
      return group_size;
    default:
#if FAULTLINE_FIXED
      return kRuntimeGroupVariant;
#else
      throw std::runtime_error("Unsupported group_size: " + std::to_string(group_size));
#endif
  }
}
