// Mechanism: nvcc contracts a*d - b*c into fma(a, d, -(b*c)) by default. For collinear vectors the
// determinant is exactly 0 in source semantics, but the fused form returns the rounding error of b*c,
// so an orientation test reports "left" or "right" for collinear points.
// Source: a known hazard of floating-point contraction (nvcc --fmad=true, the default); see the README.
// Fix: multiply with __fmul_rn, which the compiler never fuses (or build with --fmad=false).
#pragma once

#include <cmath>

#include "portability.hpp"

FL_HD inline float det2(float a, float b, float c, float d) {
#if FAULTLINE_FIXED
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, d) - __fmul_rn(b, c);
#else
  return a * d - b * c;  // the host harness is built with -ffp-contract=off
#endif
#else
#ifdef __CUDA_ARCH__
  return a * d - b * c;  // contracted by nvcc into one fma
#else
  return std::fma(a, d, -(b * c));  // what the contracted device code computes
#endif
#endif
}

// Vectors (x, 2x) and (y, 2y) lie on one line, so det = x·2y − 2x·y is 0: the two products differ only
// by a power of two, hence round identically. Fused, the result is the rounding error of 2x·y instead.
FL_HD inline float px(int i) { return 0.1f * static_cast<float>(i + 1); }
FL_HD inline float qx(int i) { return 1.37f * static_cast<float>(i + 3); }
FL_HD inline float orientation(int i) { return det2(px(i), 2.f * px(i), qx(i), 2.f * qx(i)); }

constexpr int kPoints = 64;
