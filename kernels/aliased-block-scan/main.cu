// GPU harness: one block of 1024 threads scans in shared memory, repeated to catch the race.
#include <string>
#include <vector>

#include "block_scan.cuh"
#include "cuda_harness.cuh"

__global__ void scan_kernel(int* result) {
  __shared__ int a[kScanWidth];
  __shared__ int b[kScanWidth];
  int i = threadIdx.x;
  a[i] = weight_at(i);
  __syncthreads();
  int* in = a;
  int* spare = b;
  for (int offset = 1; offset < kScanWidth; offset *= 2) {
    int* out = scan_output(in, spare);
    scan_step(in, out, i, offset);
    __syncthreads();
    if (out != in) spare = in, in = out;
  }
  result[i] = in[i];
}

int main() {
  if (int skip = faultline::repro::require_device(7, 0)) return skip;
  std::vector<int> reference(kScanWidth);
  int running = 0;
  for (int i = 0; i < kScanWidth; ++i) reference[i] = running += weight_at(i);
  int* d_result = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_result, kScanWidth * sizeof(int)));
  std::vector<int> result(kScanWidth);
  int wrong_trials = 0;
  const int trials = 50;
  for (int t = 0; t < trials; ++t) {
    scan_kernel<<<1, kScanWidth>>>(d_result);
    FL_CUDA_OK(cudaGetLastError());
    FL_CUDA_OK(cudaMemcpy(result.data(), d_result, kScanWidth * sizeof(int), cudaMemcpyDeviceToHost));
    wrong_trials += result != reference;
  }
  cudaFree(d_result);
  return faultline::repro::verdict(
      wrong_trials > 0,
      std::to_string(wrong_trials) + " of " + std::to_string(trials) + " scans produced a wrong CDF");
}
