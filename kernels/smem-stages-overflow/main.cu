// GPU harness: asks the driver for the shared memory the chosen pipeline needs and launches
// (`--head-dim N` sets the head dimension: 16 and 8, as in the report, show the symptom; from 32 up nothing is
// padded and the trigger is gone; between, it depends on whether the stage count reaches its cap).
#include <cstdio>
#include <string>

#include "cuda_harness.cuh"
#include "harness_options.hpp"
#include "stages.cuh"

__global__ void pipeline_kernel(int* out) {
  extern __shared__ unsigned char smem[];
  smem[threadIdx.x] = static_cast<unsigned char>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) *out = smem[1];
}

int main(int argc, char** argv) {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  const int head_dim = faultline::repro::int_option(argc, argv, "head-dim", kSmallHeadDim);
  cudaDeviceProp prop{};
  FL_CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  int capacity = static_cast<int>(prop.sharedMemPerBlockOptin);
  int bytes = requested_smem(head_dim, capacity);
  int* d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_out, sizeof(int)));
  FL_CUDA_OK(cudaMemset(d_out, 0xFF, sizeof(int)));  // -1: what a kernel that did not run leaves
  cudaError_t err = cudaFuncSetAttribute(pipeline_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (err == cudaSuccess) {
    pipeline_kernel<<<1, 128, bytes>>>(d_out);
    err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
  }
  int out = -1;
  if (err == cudaSuccess) FL_CUDA_OK(cudaMemcpy(&out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  cudaFree(d_out);
  // A launch said to succeed must have run: the kernel writes back what its shared memory held.
  if (err == cudaSuccess && out != 1) {
    std::fprintf(stderr, "head_dim %d: the launch succeeded but the kernel wrote %d, not 1\n", head_dim, out);
    return faultline::repro::kHarnessError;
  }
  // The runtime documents cudaErrorInvalidValue for an attribute value it cannot set, and a launch asking
  // for more dynamic shared memory than a block may use is refused with the same code.
  return faultline::repro::refusal_verdict(err, cudaErrorInvalidValue,
                                           "head_dim " + std::to_string(head_dim) + ": " +
                                               std::to_string(bytes) + " bytes requested of " +
                                               std::to_string(capacity),
                                           "launched");
}
