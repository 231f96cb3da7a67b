// Mechanism: with fewer queries than keys (decoding with a KV cache), the causal mask must align the last
// query with the last key (bottom-right). Aligning it top-left hides keys every query should see, so the
// attention output is wrong whenever seqlen_q != seqlen_k.
// Source: https://github.com/Dao-AILab/flash-attention/issues/282
// Fix: offset the mask diagonal by seqlen_k - seqlen_q.
#pragma once

#include <cmath>

#include "portability.hpp"

constexpr int kSeqQ = 3;
constexpr int kSeqK = 8;

FL_HD inline bool visible(int q, int k, int seq_q, int seq_k) {
#if FAULTLINE_FIXED
  return k <= q + (seq_k - seq_q);
#else
  (void)seq_q;
  (void)seq_k;
  return k <= q;
#endif
}

FL_HD inline float score(int q, int k) { return 0.1f * static_cast<float>((q * 5 + k * 3) % 7); }
FL_HD inline float value(int k) { return static_cast<float>(k); }

// Attention output of query q with head dimension 1, using a given mask rule.
FL_HD inline float attend(int q, bool bottom_right_reference) {
  float m = -INFINITY, num = 0.f, den = 0.f;
  for (int k = 0; k < kSeqK; ++k) {
    bool on = bottom_right_reference ? k <= q + (kSeqK - kSeqQ) : visible(q, k, kSeqQ, kSeqK);
    if (on) m = fmaxf(m, score(q, k));
  }
  for (int k = 0; k < kSeqK; ++k) {
    bool on = bottom_right_reference ? k <= q + (kSeqK - kSeqQ) : visible(q, k, kSeqQ, kSeqK);
    if (!on) continue;
    float p = expf(score(q, k) - m);
    num += p * value(k);
    den += p;
  }
  return num / den;
}
