// GPU harness: the same mixed-type MMA inside a kernel (only the fixed variant compiles).
#include <cmath>
#include <string>

#include "cuda_harness.cuh"
#include "fp8_mma.cuh"

__global__ void mma_kernel(const E4M3* a, const E5M2* b, float* out) {
  *out = Fp8Mma<E4M3, E5M2>::dot(a, b, kLength);
}

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  E4M3 a[kLength];
  E5M2 b[kLength];
  for (int i = 0; i < kLength; ++i) a[i].bits = kE4M3Bits[i], b[i].bits = kE5M2Bits[i];
  E4M3* d_a = nullptr;
  E5M2* d_b = nullptr;
  float* d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_a, sizeof a));
  FL_CUDA_OK(cudaMalloc(&d_b, sizeof b));
  FL_CUDA_OK(cudaMalloc(&d_out, sizeof(float)));
  FL_CUDA_OK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
  FL_CUDA_OK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
  mma_kernel<<<1, 1>>>(d_a, d_b, d_out);
  FL_CUDA_OK(cudaGetLastError());
  float dot = 0;
  FL_CUDA_OK(cudaMemcpy(&dot, d_out, sizeof dot, cudaMemcpyDeviceToHost));
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_out);
  return faultline::repro::verdict(std::fabs(dot - kExpectedDot) > 1e-6f,
                                   "e4m3 x e5m2 dot = " + std::to_string(dot));
}
