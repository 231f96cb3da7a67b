// GPU harness: one producer warp and two consumer warps of CTA 0 share the cluster's barriers in shared
// memory; the consumers arrive concurrently with the producer's wait, which gives up after ~0.2 s of clock
// cycles so the GPU is never wedged. With `--cluster-size 1` the buggy routing's peer is the CTA itself.
#include <cstdio>
#include <string>

#include "barrier.cuh"
#include "cuda_harness.cuh"
#include "harness_options.hpp"

__global__ void pipeline_kernel(int cluster_size, long long timeout_cycles, int* outcome) {
  constexpr int kProducerRank = 0;
  __shared__ int barriers[kMaxClusterSize];
  if (threadIdx.x < kMaxClusterSize) barriers[threadIdx.x] = 0;
  __syncthreads();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp > 0 && lane == 0) atomicAdd(&barriers[arrival_barrier(kProducerRank, cluster_size)], 1);
  if (warp == 0 && lane == 0) {
    long long start = clock64();
    int result = 2;  // timed out
    while (clock64() - start < timeout_cycles) {
      if (producer_may_proceed(*static_cast<volatile int*>(&barriers[kProducerRank]))) {
        result = 1;
        break;
      }
    }
    *outcome = result;
  }
}

int main(int argc, char** argv) {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  const int cluster_size = faultline::repro::int_option(argc, argv, "cluster-size", kDefaultClusterSize);
  if (cluster_size < 1 || cluster_size > kMaxClusterSize) return 2;
  int clock_khz = 0;
  FL_CUDA_OK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  long long timeout_cycles = static_cast<long long>(clock_khz > 0 ? clock_khz : 2000000) * 200;  // ~0.2 s
  int* d_outcome = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_outcome, sizeof(int)));
  FL_CUDA_OK(cudaMemset(d_outcome, 0, sizeof(int)));
  pipeline_kernel<<<1, 32 * (kConsumers + 1)>>>(cluster_size, timeout_cycles, d_outcome);
  FL_CUDA_OK(cudaGetLastError());
  FL_CUDA_OK(cudaDeviceSynchronize());
  int outcome = 0;
  FL_CUDA_OK(cudaMemcpy(&outcome, d_outcome, sizeof(int), cudaMemcpyDeviceToHost));
  cudaFree(d_outcome);
  if (outcome == 0) return 3;
  return faultline::repro::verdict(
      outcome == 2, outcome == 2 ? "hang: producer timed out waiting for arrivals" : "producer proceeded");
}
