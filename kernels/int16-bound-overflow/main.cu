// GPU harness: each thread computes the output of one long row with the kernel's own step; every row is
// compared with a double-precision reference over all columns (`--keys N` sets the row length).
#include <cmath>
#include <string>
#include <vector>

#include "cuda_harness.cuh"
#include "harness_options.hpp"
#include "online_softmax.cuh"
#include "reference.hpp"

__global__ void rows_kernel(const float* scores, const float* values, int num_keys, float* out, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) out[row] = attention_row_output(scores, values, num_keys);
}

int main(int argc, char** argv) {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  const int keys = faultline::repro::int_option(argc, argv, "keys", kLongRow);
  const int rows = 64;
  std::vector<float> scores(keys), values(keys);
  for (int c = 0; c < keys; ++c) {
    scores[c] = score_at(c);
    values[c] = value_at(c, keys);
  }
  const double expected = reference_row_output(scores, values);
  float *d_scores = nullptr, *d_values = nullptr, *d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_scores, keys * sizeof(float)));
  FL_CUDA_OK(cudaMalloc(&d_values, keys * sizeof(float)));
  FL_CUDA_OK(cudaMalloc(&d_out, rows * sizeof(float)));
  FL_CUDA_OK(cudaMemcpy(d_scores, scores.data(), keys * sizeof(float), cudaMemcpyHostToDevice));
  FL_CUDA_OK(cudaMemcpy(d_values, values.data(), keys * sizeof(float), cudaMemcpyHostToDevice));
  FL_CUDA_OK(cudaMemset(d_out, 0xFF, rows * sizeof(float)));  // NaN: a row the kernel did not write is wrong
  rows_kernel<<<1, rows>>>(d_scores, d_values, keys, d_out, rows);
  FL_CUDA_OK(cudaGetLastError());
  std::vector<float> out(rows);
  FL_CUDA_OK(cudaMemcpy(out.data(), d_out, rows * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(d_scores);
  cudaFree(d_values);
  cudaFree(d_out);
  int bad = 0;
  for (float o : out) bad += !std::isfinite(o) || std::fabs(o - expected) > kOutputTolerance;
  return faultline::repro::verdict(bad > 0, std::to_string(bad) + " of " + std::to_string(rows) +
                                                " rows of " + std::to_string(keys) +
                                                " keys are wrong (first: " + std::to_string(out[0]) +
                                                ", reference " + std::to_string(expected) + ")");
}
