// Mechanism: a block-wide prefix sum (the sampling step's CDF) is called with the same buffer as input
// and output, although the primitive requires them to be distinct. Threads then read partial sums that
// peers have already overwritten in the same step, the CDF overshoots, and the sampled token ids are wrong.
// Source: https://github.com/flashinfer-ai/flashinfer/issues/384
// Fix: give the scan a separate output buffer (ping-pong between two buffers).
#pragma once

#include "portability.hpp"

constexpr int kScanWidth = 1024;

// One Hillis–Steele step for element i: out[i] = in[i] + in[i - offset]. Correct only if `out` is not `in`.
FL_HD inline void scan_step(const int* in, int* out, int i, int offset) {
  out[i] = i >= offset ? in[i] + in[i - offset] : in[i];
}

// Which buffer a step writes: the same one (buggy) or the other of a pair (fixed).
FL_HD inline int* scan_output(int* input, int* spare) {
#if FAULTLINE_FIXED
  (void)input;
  return spare;
#else
  (void)spare;
  return input;
#endif
}

// Token whose CDF interval holds `target`: the first index with cdf[i] > target, or kScanWidth if none.
FL_HD inline int sample_token(const int* cdf, int target) {
  for (int i = 0; i < kScanWidth; ++i) {
    if (cdf[i] > target) return i;
  }
  return kScanWidth;
}

FL_HD inline int weight_at(int i) { return 1 + (i * 7) % 5; }
