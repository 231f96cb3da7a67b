// The oracle shared by both harnesses: worst relative error against the FP32 and the TF32 reference.
#pragma once

#include <cmath>
#include <string>

#include "tf32_gemm.cuh"
#include "verdict.hpp"

inline int judge(const float* c) {
  double worst_fp32 = 0, worst_tf32 = 0;
  for (int i = 0; i < kDim; ++i) {
    for (int j = 0; j < kDim; ++j) {
      double fp32 = reference_element(i, j, false), tf32 = reference_element(i, j, true);
      worst_fp32 = std::fmax(worst_fp32, std::fabs(c[i * kDim + j] - fp32) / std::fabs(fp32));
      worst_tf32 = std::fmax(worst_tf32, std::fabs(c[i * kDim + j] - tf32) / std::fabs(tf32));
    }
  }
  const double fp32_tolerance = 1e-5;
  return faultline::repro::verdict(worst_fp32 > fp32_tolerance,
                                   "max relative error vs FP32 reference " + std::to_string(worst_fp32) +
                                       ", vs TF32 reference " + std::to_string(worst_tf32));
}
