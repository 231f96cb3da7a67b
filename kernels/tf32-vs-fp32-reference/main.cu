// GPU harness: one thread per output element; an element the kernel leaves unwritten stays NaN and makes
// the oracle report a harness error.
#include <vector>

#include "compare.hpp"
#include "cuda_harness.cuh"

__global__ void gemm_kernel(float* c) {
  c[blockIdx.x * kDim + threadIdx.x] = gemm_element(blockIdx.x, threadIdx.x);
}

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  float* d_c = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_c, kDim * kDim * sizeof(float)));
  FL_CUDA_OK(cudaMemset(d_c, 0xFF, kDim * kDim * sizeof(float)));  // NaN: an unwritten element is an error
  gemm_kernel<<<kDim, kDim>>>(d_c);
  FL_CUDA_OK(cudaGetLastError());
  std::vector<float> c(kDim * kDim);
  FL_CUDA_OK(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(d_c);
  return judge(c.data());
}
