// GPU harness: one block of 1024 threads scans in shared memory. Warps start each step staggered by their
// index, as uneven per-warp work staggers them in the sampling kernel: a warp then reads partial sums that
// lower warps have already overwritten whenever the buffer is shared. Without the stagger the race shows
// only when the scheduler happens to interleave that way; with separate buffers no interleaving matters.
#include <string>
#include <vector>

#include "block_scan.cuh"
#include "cuda_harness.cuh"

constexpr long long kStaggerCyclesPerWarp = 400;

__device__ void wait_cycles(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

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
    wait_cycles(kStaggerCyclesPerWarp * (i / 32));
    scan_step(in, out, i, offset);
    __syncthreads();
    if (out != in) spare = in, in = out;
  }
  result[i] = in[i];
}

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  std::vector<int> reference(kScanWidth);
  int running = 0;
  for (int i = 0; i < kScanWidth; ++i) reference[i] = running += weight_at(i);
  int* d_result = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_result, kScanWidth * sizeof(int)));
  std::vector<int> result(kScanWidth);
  int wrong_trials = 0;
  const int trials = 10;
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
