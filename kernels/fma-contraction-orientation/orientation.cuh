// Mechanism: nvcc (in ptxas) contracts a*d - b*c into fma(a, d, -(b*c)) by default. For collinear vectors
// the determinant is exactly 0 in source semantics, but the fused form returns the rounding error of b*c,
// so an orientation test reports "left" or "right" for collinear points.
// Source: no single issue; nvcc's documented default --fmad=true (CUDA Programming Guide, floating point).
// Fix: multiply with __fmul_rn, which the compiler never fuses (or build with --fmad=false).
#pragma once

#include "portability.hpp"

// A product rounded to float before anything else uses it, which no compiler may fuse into a later add.
FL_HD inline float rounded_product(float x, float y) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(x, y);
#else
  volatile float product = x * y;  // the host's __fmul_rn: a stored float is a rounded one
  return product;
#endif
}

FL_HD inline float det2(float a, float b, float c, float d) {
#if FAULTLINE_FIXED
  return rounded_product(a, d) - rounded_product(b, c);
#else
  // Contractible: nvcc fuses it by default, and so does g++ -ffp-contract=fast on an FMA target.
  return a * d - b * c;
#endif
}

// Vectors (x, 2x) and (y, 2y) lie on one line, so det = x·2y − 2x·y is 0: the two products differ only
// by a power of two, hence round identically. Fused, the result is the rounding error of 2x·y instead.
constexpr int kPoints = 64;
inline float px(int i) { return 0.1f * static_cast<float>(i + 1); }
inline float qx(int i) { return 1.37f * static_cast<float>(i + 3); }
struct Pair {
  float a, b, c, d;  // det2(a, b, c, d) is the orientation of (a, b) against (c, d)
};
inline Pair collinear_pair(int i) { return {px(i), 2.f * px(i), qx(i), 2.f * qx(i)}; }

// The sign of the exact determinant: a product of two floats has at most 48 significant bits, so both are
// exact in double and their difference has the exact result's sign.
inline int exact_orientation(const Pair& p) {
  const double det = double(p.a) * double(p.d) - double(p.b) * double(p.c);
  return (det > 0) - (det < 0);
}

inline int sign_of(float x) { return (x > 0.f) - (x < 0.f); }
