// GPU harness: the real dispatch on the device at hand.
#include <string>

#include "capability.hpp"
#include "cuda_harness.cuh"
#include "portability.hpp"

cudaError_t launch_fast(float* x);

__global__ void portable_kernel(float* x) { x[threadIdx.x] *= 2.f; }

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  cudaDeviceProp prop{};
  FL_CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major >= kFastPathMajor) {
    return faultline::repro::skipped("the device has compute capability " + std::to_string(prop.major) +
                                     ".x: it has the feature, so the missing check cannot show");
  }
  float* d_x = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_x, 32 * sizeof(float)));
  FL_CUDA_OK(cudaMemset(d_x, 0, 32 * sizeof(float)));
  Path path = choose_path(prop.major);
  cudaError_t err;
  if (path == Path::kFast) {
    err = launch_fast(d_x);
  } else {
    portable_kernel<<<1, 32>>>(d_x);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  cudaFree(d_x);
  // The symptom is the runtime finding no image for this device in the fast path's fatbinary.
  return faultline::repro::refusal_verdict(err, cudaErrorNoKernelImageForDevice,
                                           std::string(path == Path::kFast ? "fast" : "portable") + " path",
                                           "ok");
}
