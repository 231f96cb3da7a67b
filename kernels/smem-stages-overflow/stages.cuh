// Mechanism: the pipeline depth is chosen from a per-stage shared-memory estimate that ignores the
// padding of small head dimensions to the 64-column MMA width. For head_dim 32 it picks twice the stages
// that fit, the kernel asks for more shared memory than a CTA may have, and the launch fails.
// Source: https://github.com/Dao-AILab/flash-attention/issues/2591
// Fix: estimate each stage with the padded head dimension.
#pragma once

#include "portability.hpp"

constexpr int kBlockN = 128;  // keys per stage
constexpr int kMaxStages = 16;
constexpr int kHopperSmemPerCta = 232448;  // 227 KiB: the opt-in limit of H100/H200

FL_HD inline int padded_head_dim(int head_dim) { return head_dim < 64 ? 64 : head_dim; }

// Shared memory one stage really occupies: K and V tiles in fp16.
FL_HD inline int stage_bytes(int head_dim) { return kBlockN * padded_head_dim(head_dim) * 2 * 2; }

FL_HD inline int pick_stages(int head_dim, int smem_capacity) {
#if FAULTLINE_FIXED
  int estimate = stage_bytes(head_dim);
#else
  int estimate = kBlockN * head_dim * 2 * 2;
#endif
  int stages = smem_capacity / estimate;
  return stages < kMaxStages ? stages : kMaxStages;
}

FL_HD inline int requested_smem(int head_dim, int smem_capacity) {
  return pick_stages(head_dim, smem_capacity) * stage_bytes(head_dim);
}

constexpr int kSmallHeadDim = 32;
