// Mechanism: the kernel calls a __device__ function defined in another .cu file. That needs relocatable
// device code (nvcc -rdc=true, CMake's CUDA_SEPARABLE_COMPILATION); without it each file is finished on
// its own and ptxas stops with an unresolved extern function.
// Source: the usual build misconfiguration of multi-file CUDA extensions; see the README.
// Fix: turn on separable compilation for the target, so device code is linked across files.
#include <string>

#include "cuda_harness.cuh"

extern __device__ float scale(float x);

__global__ void apply_kernel(float* x) { x[threadIdx.x] = scale(x[threadIdx.x]); }

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  float host[32];
  for (int i = 0; i < 32; ++i) host[i] = static_cast<float>(i);
  float* d_x = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_x, sizeof host));
  FL_CUDA_OK(cudaMemcpy(d_x, host, sizeof host, cudaMemcpyHostToDevice));
  apply_kernel<<<1, 32>>>(d_x);
  FL_CUDA_OK(cudaGetLastError());
  FL_CUDA_OK(cudaMemcpy(host, d_x, sizeof host, cudaMemcpyDeviceToHost));
  cudaFree(d_x);
  int wrong = 0;
  for (int i = 0; i < 32; ++i) wrong += host[i] != 2.f * i;
  return faultline::repro::verdict(wrong > 0, std::to_string(wrong) + " of 32 values not scaled");
}
