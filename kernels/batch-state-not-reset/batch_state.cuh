// Mechanism: the blockwise quantizer keeps a running block index in state that persists across calls.
// It is not reset when a new batch starts, so the second batch writes its scales after the first batch's
// and dequantization, which reads from block 0, applies the first batch's scales to later batches.
// Source: https://github.com/bitsandbytes-foundation/bitsandbytes/issues/767
// Fix: reset the per-batch index state at the start of every batch.
#pragma once

#include <cmath>

#include "portability.hpp"

constexpr int kBlock = 8;
constexpr int kBlocksPerBatch = 4;
constexpr int kBatches = 3;
constexpr int kBatchSize = kBlock * kBlocksPerBatch;

struct QuantState {
  int next_block = 0;
  float absmax[kBlocksPerBatch * kBatches];
};

FL_HD inline void begin_batch(QuantState* state) {
#if FAULTLINE_FIXED
  state->next_block = 0;
#else
  (void)state;
#endif
}

// Quantizes one block to int8 with its own scale, recording the scale at the state's running index.
FL_HD inline void quantize_block(QuantState* state, const float* x, signed char* q) {
  float m = 0.f;
  for (int i = 0; i < kBlock; ++i) m = fmaxf(m, fabsf(x[i]));
  int slot = state->next_block++;
  state->absmax[slot] = m;
  for (int i = 0; i < kBlock; ++i) q[i] = static_cast<signed char>(lrintf(127.f * x[i] / m));
}

// Dequantizes block b of the current batch with the scale stored for it (slot b).
FL_HD inline float dequantize(const QuantState* state, const signed char* q, int b, int i) {
  return state->absmax[b] * q[i] / 127.f;
}

FL_HD inline float input_value(int batch, int i) {
  return (batch + 1) * 0.5f * static_cast<float>((i * 37) % 17 - 8);
}
