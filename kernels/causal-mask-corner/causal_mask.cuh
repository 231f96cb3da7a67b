// Mechanism: with fewer queries than keys (decoding with a KV cache), the causal mask must align the last
// query with the last key (bottom-right). Aligning it top-left hides keys every query should see, so the
// attention output is wrong whenever seqlen_q != seqlen_k.
// Source: https://github.com/Dao-AILab/flash-attention/issues/282
// Fix: offset the mask diagonal by seqlen_k - seqlen_q.
#pragma once

#include <cmath>

#include "portability.hpp"

constexpr int kSeqK = 8;         // tokens in the KV cache
constexpr int kDefaultSeqQ = 3;  // new tokens decoded against it
constexpr int kHeadDim = 4;

FL_HD inline bool visible(int q, int k, int seq_q, int seq_k) {
#if FAULTLINE_FIXED
  return k <= q + (seq_k - seq_q);
#else
  (void)seq_q;
  (void)seq_k;
  return k <= q;
#endif
}

// Inputs by absolute token position, so a decode call and a full-sequence pass read the same tokens.
FL_HD inline float query_at(int pos, int d) {
  return 0.25f * static_cast<float>((pos * 7 + d * 3) % 5) - 0.5f;
}
FL_HD inline float key_at(int pos, int d) { return 0.2f * static_cast<float>((pos * 3 + d * 5) % 7) - 0.6f; }
FL_HD inline float value_at(int pos, int d) { return static_cast<float>(pos) + 0.1f * static_cast<float>(d); }

// The kernel's decode step: row q of seq_q queries (the tokens at positions seq_k - seq_q + q) attends over
// the kSeqK cached keys through the kernel's mask; writes kHeadDim outputs.
FL_HD inline void attend_row(int q, int seq_q, float* out) {
  const int pos = kSeqK - seq_q + q;
  const float scale = 1.f / sqrtf(static_cast<float>(kHeadDim));
  float s[kSeqK];
  float m = -INFINITY;
  for (int k = 0; k < kSeqK; ++k) {
    s[k] = 0.f;
    for (int d = 0; d < kHeadDim; ++d) s[k] += query_at(pos, d) * key_at(k, d);
    s[k] *= scale;
    if (visible(q, k, seq_q, kSeqK)) m = fmaxf(m, s[k]);
  }
  float den = 0.f;
  for (int d = 0; d < kHeadDim; ++d) out[d] = 0.f;
  for (int k = 0; k < kSeqK; ++k) {
    if (!visible(q, k, seq_q, kSeqK)) continue;
    float p = expf(s[k] - m);
    den += p;
    for (int d = 0; d < kHeadDim; ++d) out[d] += p * value_at(k, d);
  }
  for (int d = 0; d < kHeadDim; ++d) out[d] /= den;
}
