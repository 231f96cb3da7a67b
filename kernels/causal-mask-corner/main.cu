// GPU harness: one thread per query row.
#include <cmath>
#include <string>

#include "causal_mask.cuh"
#include "cuda_harness.cuh"

__global__ void attention_kernel(float* out, float* reference) {
  out[threadIdx.x] = attend(threadIdx.x, false);
  reference[threadIdx.x] = attend(threadIdx.x, true);
}

int main() {
  if (int skip = faultline::repro::require_device(7, 0)) return skip;
  float *d_out = nullptr, *d_ref = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_out, kSeqQ * sizeof(float)));
  FL_CUDA_OK(cudaMalloc(&d_ref, kSeqQ * sizeof(float)));
  attention_kernel<<<1, kSeqQ>>>(d_out, d_ref);
  FL_CUDA_OK(cudaGetLastError());
  float out[kSeqQ], ref[kSeqQ];
  FL_CUDA_OK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  FL_CUDA_OK(cudaMemcpy(ref, d_ref, sizeof ref, cudaMemcpyDeviceToHost));
  cudaFree(d_out);
  cudaFree(d_ref);
  int wrong = 0;
  for (int q = 0; q < kSeqQ; ++q) wrong += std::fabs(out[q] - ref[q]) > 1e-5f;
  return faultline::repro::verdict(wrong > 0,
                                   std::to_string(wrong) + " query rows differ from the reference");
}
