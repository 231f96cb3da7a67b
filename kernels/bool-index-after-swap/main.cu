// GPU harness: launches with the block the configuration implies; an illegal one is refused by the driver.
#include <string>

#include "block_config.cuh"
#include "cuda_harness.cuh"

__global__ void gemm_stub(int* out) {
  if (threadIdx.x == 0) *out = blockDim.x;
}

int main() {
  if (int skip = faultline::repro::require_device(7, 0)) return skip;
  const bool k_major[2] = {true, false};
  int block_k = choose_block_k(k_major, true);
  int* d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_out, sizeof(int)));
  gemm_stub<<<1, block_k * kThreadsPerK>>>(d_out);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  cudaFree(d_out);
  return faultline::repro::verdict(err != cudaSuccess,
                                   "launch with block_k " + std::to_string(block_k) + ": " +
                                       (err == cudaSuccess ? "ok" : faultline::repro::cuda_error_text(err)));
}
