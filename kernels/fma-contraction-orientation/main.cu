// GPU harness: one thread per pair.
#include <string>

#include "cuda_harness.cuh"
#include "orientation_kernel.cuh"

int main() {
  if (int skip = faultline::repro::require_device(7, 0)) return skip;
  float* d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_out, kPoints * sizeof(float)));
  orientation_kernel<<<1, kPoints>>>(d_out);
  FL_CUDA_OK(cudaGetLastError());
  float out[kPoints];
  FL_CUDA_OK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  cudaFree(d_out);
  int nonzero = 0;
  for (float v : out) nonzero += v != 0.f;
  return faultline::repro::verdict(nonzero > 0, std::to_string(nonzero) + " of " + std::to_string(kPoints) +
                                                    " collinear pairs get a non-zero orientation");
}
