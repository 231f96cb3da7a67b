// GPU harness: the real launch; each CTA writes the rows of its tile.
#include <string>
#include <vector>

#include "cuda_harness.cuh"
#include "tiling.cuh"

__global__ void tile_kernel(int m, int* written) { cta_rows(blockIdx.x, m, written, threadIdx.x); }

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  int* d_written = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_written, kRows * sizeof(int)));
  FL_CUDA_OK(cudaMemset(d_written, 0, kRows * sizeof(int)));
  tile_kernel<<<grid_rows(kRows), kCtaTileM>>>(kRows, d_written);
  FL_CUDA_OK(cudaGetLastError());
  std::vector<int> written(kRows);
  FL_CUDA_OK(cudaMemcpy(written.data(), d_written, kRows * sizeof(int), cudaMemcpyDeviceToHost));
  cudaFree(d_written);
  int missing = 0;
  for (int w : written) missing += w == 0;
  return faultline::repro::verdict(
      missing > 0, std::to_string(missing) + " of " + std::to_string(kRows) + " output rows never computed");
}
