// GPU harness: launches a kernel with the block the dispatcher's configuration implies (swapped operands;
// `--swap-ab 0` keeps them in place) and reports what the driver says. The launch is real, so the verdict
// is the runtime's: an illegal block is refused, a legal one runs and reports its own blockDim.
#include <string>

#include "block_config.cuh"
#include "cuda_harness.cuh"
#include "harness_options.hpp"

__global__ void gemm_stub(int* out) {
  if (threadIdx.x == 0) *out = blockDim.x;
}

int main(int argc, char** argv) {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  const bool k_major[2] = {true, false};
  const bool swap_ab = faultline::repro::int_option(argc, argv, "swap-ab", 1) != 0;
  const int threads = threads_per_block(k_major, swap_ab);
  int* d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_out, sizeof(int)));
  FL_CUDA_OK(cudaMemset(d_out, 0, sizeof(int)));
  gemm_stub<<<1, threads>>>(d_out);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  int ran_with = 0;
  if (err == cudaSuccess) FL_CUDA_OK(cudaMemcpy(&ran_with, d_out, sizeof(int), cudaMemcpyDeviceToHost));
  cudaFree(d_out);
  if (err == cudaSuccess && ran_with != threads) return 3;
  // The symptom is the launch refused for its block shape; any other error is the harness's.
  return faultline::repro::refusal_verdict(err, cudaErrorInvalidConfiguration,
                                           "launch with block_k " + std::to_string(choose_block_k(k_major, swap_ab)) +
                                               " (" + std::to_string(threads) + " threads)",
                                           "ran");
}
