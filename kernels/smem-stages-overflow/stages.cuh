// Mechanism: the pipeline depth is chosen from a per-stage shared-memory estimate that ignores the
// padding of head dimensions below 32 to the 32-column tile width. For head_dim 16 or 8 it picks more
// stages than fit, the kernel asks for more shared memory than a CTA may have, and the launch fails;
// from 32 up nothing is padded, the estimate is exact and the launch works.
// Source: https://github.com/Dao-AILab/flash-attention/issues/2591
// Fix: estimate each stage with the padded head dimension.
#pragma once

#include "portability.hpp"

constexpr int kBlockN = 128;  // keys per stage
constexpr int kMaxStages = 16;
constexpr int kHopperSmemPerCta = 232448;  // 227 KiB: the opt-in limit of H100/H200

FL_HD inline int padded_head_dim(int head_dim) { return head_dim < 32 ? 32 : head_dim; }

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

// Hand-worked on Hopper (232448 bytes): head_dim 16 is estimated at 8192 bytes a stage, so the buggy pick is
// the cap of 16 stages, which really need 16 * 16384 = 262144 bytes; the fixed pick is 232448 / 16384 = 14
// stages (229376 bytes), the same as the buggy one at head_dim 32.
constexpr int kSmallHeadDim = 16;
