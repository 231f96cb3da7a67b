// GPU harness: each thread computes the softmax mass of one long row with the kernel's own step.
#include <cmath>
#include <string>
#include <vector>

#include "cuda_harness.cuh"
#include "online_softmax.cuh"

__global__ void rows_kernel(const float* scores, int num_keys, float* mass, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) mass[row] = softmax_row_mass(scores, num_keys);
}

int main() {
  if (int skip = faultline::repro::require_device(7, 0)) return skip;
  const int rows = 64;
  std::vector<float> scores(kLongRow);
  for (int c = 0; c < kLongRow; ++c) scores[c] = score_at(c);
  float *d_scores = nullptr, *d_mass = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_scores, kLongRow * sizeof(float)));
  FL_CUDA_OK(cudaMalloc(&d_mass, rows * sizeof(float)));
  FL_CUDA_OK(cudaMemcpy(d_scores, scores.data(), kLongRow * sizeof(float), cudaMemcpyHostToDevice));
  rows_kernel<<<1, rows>>>(d_scores, kLongRow, d_mass, rows);
  FL_CUDA_OK(cudaGetLastError());
  std::vector<float> mass(rows);
  FL_CUDA_OK(cudaMemcpy(mass.data(), d_mass, rows * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(d_scores);
  cudaFree(d_mass);
  int bad = 0;
  for (float m : mass) bad += !std::isfinite(m) || std::fabs(m - 1.f) > 1e-2f;
  return faultline::repro::verdict(
      bad > 0, std::to_string(bad) + " of " + std::to_string(rows) +
                   " rows lost their softmax mass (first: " + std::to_string(mass[0]) + ")");
}
