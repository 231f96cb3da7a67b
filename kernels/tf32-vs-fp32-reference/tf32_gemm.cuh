// Mechanism: the GEMM rounds its FP32 operands to TF32 (10 mantissa bits) before multiplying, as tensor
// cores do when TF32 math is enabled, while the test compares against an FP32 reference. The result is
// off by up to about 6e-5 relative, far outside an FP32 tolerance, yet it matches a TF32 reference.
// Source: https://github.com/NVIDIA/cutlass/issues/1270
// Fix: keep FP32 arithmetic where FP32 results are promised (or compare against the TF32 reference).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "portability.hpp"

constexpr int kDim = 64;

// Round-to-nearest-even to TF32, kept in a float: the low 13 mantissa bits become zero.
FL_HD inline float to_tf32(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  u += 0x0fffu + ((u >> 13) & 1u);
  u &= 0xffffe000u;
  float y;
  memcpy(&y, &u, sizeof y);
  return y;
}

FL_HD inline float operand(float x) {
#if FAULTLINE_FIXED
  return x;
#else
  return to_tf32(x);
#endif
}

FL_HD inline float a_at(int i, int k) {
  return 1.0f + 0.000123f * static_cast<float>((i * 31 + k * 17) % 101);
}
FL_HD inline float b_at(int k, int j) { return 1.0f - 0.000077f * static_cast<float>((k * 13 + j * 7) % 89); }

// One output element as the kernel computes it.
FL_HD inline float gemm_element(int i, int j) {
  float acc = 0.f;
  for (int k = 0; k < kDim; ++k) acc += operand(a_at(i, k)) * operand(b_at(k, j));
  return acc;
}

// TF32 rounding for the reference, by another road than to_tf32's bit arithmetic (so a fault there is not
// repeated here): the significand scaled to the 11 bits TF32 keeps, the leading one included, and rounded
// to the nearest, ties to even (the default rounding mode of nearbyint).
inline float tf32_reference_rounding(float x) {
  int exponent = 0;
  const double significand = std::frexp(static_cast<double>(x), &exponent);  // in [0.5, 1)
  return static_cast<float>(std::ldexp(std::nearbyint(std::ldexp(significand, 11)), exponent - 11));
}

// References, accumulated in double: exact FP32 inputs, and TF32-rounded inputs.
inline double reference_element(int i, int j, bool tf32) {
  double acc = 0;
  for (int k = 0; k < kDim; ++k) {
    float a = a_at(i, k), b = b_at(k, j);
    if (tf32) a = tf32_reference_rounding(a), b = tf32_reference_rounding(b);
    acc += static_cast<double>(a) * b;
  }
  return acc;
}
