// GPU harness: one thread per collinear pair runs det2 as nvcc compiled it (by default with --fmad=true);
// the host compares each sign with the exact determinant's (exact_orientation, in double). Built with
// -fmad=false the buggy expression is not fused and every sign comes out right. d_out starts as a sentinel,
// since sign_of reads NaN as 0, the expected sign: an unwritten or non-finite result is a harness error.
#include <cmath>
#include <string>

#include "cuda_harness.cuh"
#include "orientation_kernel.cuh"

constexpr float kUnwritten = 1e30f;  // no det2 of these pairs comes near it: their products stay below 2e3

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  float4 pairs[kPoints];
  for (int i = 0; i < kPoints; ++i) {
    const Pair p = collinear_pair(i);
    pairs[i] = make_float4(p.a, p.b, p.c, p.d);
  }
  float4* d_pairs = nullptr;
  float* d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_pairs, sizeof pairs));
  FL_CUDA_OK(cudaMalloc(&d_out, kPoints * sizeof(float)));
  FL_CUDA_OK(cudaMemcpy(d_pairs, pairs, sizeof pairs, cudaMemcpyHostToDevice));
  float out[kPoints];
  for (float& o : out) o = kUnwritten;
  FL_CUDA_OK(cudaMemcpy(d_out, out, sizeof out, cudaMemcpyHostToDevice));
  orientation_kernel<<<1, kPoints>>>(d_pairs, d_out);
  FL_CUDA_OK(cudaGetLastError());
  FL_CUDA_OK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  cudaFree(d_pairs);
  cudaFree(d_out);
  for (int i = 0; i < kPoints; ++i) {
    if (!std::isfinite(out[i]) || out[i] == kUnwritten) {
      std::fprintf(stderr, "pair %d: the kernel left %g, not a determinant\n", i, out[i]);
      return faultline::repro::kHarnessError;
    }
  }
  int wrong = 0;
  for (int i = 0; i < kPoints; ++i) wrong += sign_of(out[i]) != exact_orientation(collinear_pair(i));
  return faultline::repro::verdict(wrong > 0,
                                   std::to_string(wrong) + " of " + std::to_string(kPoints) +
                                       " collinear pairs get an orientation other than the exact one (0)");
}
