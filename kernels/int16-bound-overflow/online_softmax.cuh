// Mechanism: the number of valid key columns reaches the online-softmax step as a 16-bit integer. Past
// 32767 keys it wraps: to a negative bound (e.g. 40000 keys), which masks every column and makes the row
// NaN, or to a small positive one (e.g. 70000 keys -> 4464), which silently drops the tail of the row.
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

// One attention row: softmax over `num_keys` scores, weighting `values`. Columns at or past the bound are
// masked, so a wrapped bound changes which values reach the output.
FL_HD inline float attention_row_output(const float* scores, const float* values, int num_keys) {
  const ColumnBound max_col = static_cast<ColumnBound>(num_keys);
  float row_max = -INFINITY;
  for (int c = 0; c < num_keys; ++c) {
    if (c < max_col) row_max = fmaxf(row_max, scores[c]);
  }
  float denominator = 0.f, weighted = 0.f;
  for (int c = 0; c < num_keys; ++c) {
    const float p = c < max_col ? expf(scores[c] - row_max) : 0.f;
    denominator += p;
    weighted += p * values[c];
  }
  return weighted / denominator;
}

// Scores of a long row: bounded, varied, deterministic.
FL_HD inline float score_at(int c) { return 0.001f * static_cast<float>(c % 997); }

// Values that grow along the row, so dropping a tail of it moves the output away from the truth: past the
// tolerance below from about 15 of 40000 columns on (a wrapped bound drops at least 65536, or all).
FL_HD inline float value_at(int c, int num_keys) {
  return static_cast<float>(c) / static_cast<float>(num_keys);
}

constexpr int kLongRow = 40000;  // > 32767: the 16-bit bound wraps

// Tolerance on the output (a weighted mean of values in [0, 1)): float summation over 10^5 to 2*10^5
// columns stays within 2e-6 to 6e-6 of the double reference, and a wrapped bound moves the output by more
// than 0.1.
constexpr double kOutputTolerance = 1e-4;
