// GPU harness: one thread per query row on the device, compared on the host with the last rows of
// full-sequence causal attention in double (full_sequence_reference.hpp); `--seq-q 8` makes the corners
// coincide and the buggy mask pass.
#include <string>
#include <vector>

#include "causal_mask.cuh"
#include "cuda_harness.cuh"
#include "full_sequence_reference.hpp"
#include "harness_options.hpp"

__global__ void attention_kernel(int seq_q, float* out) {
  if (static_cast<int>(threadIdx.x) < seq_q) attend_row(threadIdx.x, seq_q, out + threadIdx.x * kHeadDim);
}

int main(int argc, char** argv) {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  const int seq_q = faultline::repro::int_option(argc, argv, "seq-q", kDefaultSeqQ);
  if (seq_q < 1 || seq_q > kSeqK) return 2;
  float* d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_out, seq_q * kHeadDim * sizeof(float)));
  attention_kernel<<<1, kSeqK>>>(seq_q, d_out);
  FL_CUDA_OK(cudaGetLastError());
  std::vector<float> out(seq_q * kHeadDim);
  FL_CUDA_OK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(d_out);
  const int wrong = rows_off_reference(out.data(), seq_q);
  return faultline::repro::verdict(wrong > 0, std::to_string(wrong) + " of " + std::to_string(seq_q) +
                                                  " query rows computed on the device differ from "
                                                  "full-sequence causal attention");
}
