// Mechanism: the decode kernel is instantiated only for grouped-query group sizes 1, 2, 4 and 8, and the
// dispatcher raises "Unsupported group_size" for anything else. A model with 12 query heads over 4 KV heads
// (group size 3) crashes before launch.
// Source: https://github.com/flashinfer-ai/flashinfer/issues/258
// Fix: add a variant that takes the group size at run time for the sizes without a specialised kernel.
#pragma once

#include "portability.hpp"

constexpr int kNoVariant = -1;
constexpr int kRuntimeGroupVariant = 0;

// Variant id for a group size: the size itself for the specialised kernels.
FL_HD inline int dispatch_group_size(int group_size) {
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
      return kNoVariant;
#endif
  }
}

// The KV head a query head reads: what every variant computes, specialised or not.
FL_HD inline int kv_head_of(int query_head, int group_size) { return query_head / group_size; }

constexpr int kQueryHeads = 12;
constexpr int kKvHeads = 4;
