// The oracle shared by both harnesses: worst relative error against the FP32 and the TF32 reference.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "tf32_gemm.cuh"
#include "verdict.hpp"

// The symptom is a product that misses the FP32 reference but matches the TF32 one; a product that misses
// both is not TF32 rounding but some other fault, so it is a harness error rather than a reproduction.
inline int judge(const float* c) {
  double worst_fp32 = 0, worst_tf32 = 0;
  for (int i = 0; i < kDim; ++i) {
    for (int j = 0; j < kDim; ++j) {
      double fp32 = reference_element(i, j, false), tf32 = reference_element(i, j, true);
      // fmax drops a NaN operand, so a NaN element is made to count as infinitely wrong.
      double e32 = std::fabs(c[i * kDim + j] - fp32) / std::fabs(fp32);
      double e19 = std::fabs(c[i * kDim + j] - tf32) / std::fabs(tf32);
      worst_fp32 = std::fmax(worst_fp32, std::isnan(e32) ? INFINITY : e32);
      worst_tf32 = std::fmax(worst_tf32, std::isnan(e19) ? INFINITY : e19);
    }
  }
  // Float accumulation of 64 products stays within a few 1e-7 of either reference it follows, while the
  // two references differ by up to about 6e-5.
  const double tolerance = 1e-5;
  const std::string detail = "max relative error vs FP32 reference " + std::to_string(worst_fp32) +
                             ", vs TF32 reference " + std::to_string(worst_tf32);
  if (worst_fp32 > tolerance && worst_tf32 > tolerance) {
    std::fprintf(stderr, "%s: the product matches neither reference (tolerance %g)\n", detail.c_str(),
                 tolerance);
    return faultline::repro::kHarnessError;
  }
  return faultline::repro::verdict(worst_fp32 > tolerance, detail);
}
