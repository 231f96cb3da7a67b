// Mechanism: the number of valid key columns reaches the online-softmax step as a 16-bit integer. Past
// 32767 keys it wraps negative, every column is masked out, the row maximum stays -inf, and the
// normalisation divides 0 by 0: the attention row becomes NaN.
// Source: https://github.com/facebookresearch/xformers/issues/719
// Fix: carry the column bound as a 32-bit int.
#pragma once

#include <cmath>
#include <cstdint>

#include "portability.hpp"

#if FAULTLINE_FIXED
using ColumnBound = int32_t;
#else
using ColumnBound = int16_t;
#endif

// Probability mass of one softmax row over `num_keys` scores; 1 when the bound is carried correctly.
FL_HD inline float softmax_row_mass(const float* scores, int num_keys) {
  const ColumnBound max_col = static_cast<ColumnBound>(num_keys);
  float row_max = -INFINITY;
  for (int c = 0; c < num_keys; ++c) {
    if (c < max_col) row_max = fmaxf(row_max, scores[c]);
  }
  float denominator = 0.f;
  for (int c = 0; c < num_keys; ++c) denominator += c < max_col ? expf(scores[c] - row_max) : 0.f;
  float mass = 0.f;
  for (int c = 0; c < num_keys; ++c) mass += (c < max_col ? expf(scores[c] - row_max) : 0.f) / denominator;
  return mass;
}

// Scores of a long row: bounded, varied, deterministic.
FL_HD inline float score_at(int c) { return 0.001f * static_cast<float>(c % 997); }

constexpr int kLongRow = 40000;  // > 32767: the 16-bit bound wraps
