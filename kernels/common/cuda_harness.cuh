// GPU-side helpers shared by the reproducer harnesses: error checks that report instead of abort,
// and the capability check every harness runs before launching anything.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "verdict.hpp"

namespace faultline::repro {

// Returns a skip exit code with the reason when there is no usable device or its compute capability is
// below major.minor; 0 when the device qualifies.
inline int require_device(int major, int minor) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return skipped("no CUDA device");
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  if (prop.major < major || (prop.major == major && prop.minor < minor)) {
    return skipped("compute capability " + std::to_string(prop.major) + "." + std::to_string(prop.minor) +
                   " is below the required " + std::to_string(major) + "." + std::to_string(minor));
  }
  return 0;
}

inline std::string cuda_error_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

// The verdict of a harness whose symptom is the runtime refusing a call with exactly `refusal`: success is
// correct, `refusal` the symptom, any other error a harness error (exit 3, as FL_CUDA_OK), so that a broken
// driver or an out-of-memory device is not read as a reproduction.
inline int refusal_verdict(cudaError_t err, cudaError_t refusal, const std::string& what,
                           const std::string& on_success) {
  if (err != cudaSuccess && err != refusal) {
    std::fprintf(stderr, "%s: %s, where only %s is the symptom\n", what.c_str(), cuda_error_text(err).c_str(),
                 cudaGetErrorName(refusal));
    return 3;
  }
  return verdict(err == refusal, what + ": " + (err == cudaSuccess ? on_success : cuda_error_text(err)));
}

}  // namespace faultline::repro

// Harness error (not a symptom): print and leave with exit code 3.
#define FL_CUDA_OK(call)                                                                                 \
  do {                                                                                                   \
    cudaError_t fl_err = (call);                                                                         \
    if (fl_err != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s failed: %s\n", #call, faultline::repro::cuda_error_text(fl_err).c_str()); \
      return 3;                                                                                          \
    }                                                                                                    \
  } while (0)
