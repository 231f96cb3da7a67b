// GPU harness: one producer and two consumer warps share barriers in shared memory; the producer's wait
// gives up after ~0.2 s of clock cycles so the GPU is never wedged.
#include <string>

#include "barrier.cuh"
#include "cuda_harness.cuh"

__global__ void pipeline_kernel(int* outcome, long long timeout_cycles) {
  __shared__ int barriers[2];
  if (threadIdx.x < 2) barriers[threadIdx.x] = 0;
  __syncthreads();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp > 0 && lane == 0) atomicAdd(&barriers[arrival_barrier(warp - 1)], 1);
  if (warp == 0 && lane == 0) {
    long long start = clock64();
    int result = 2;  // timed out
    while (clock64() - start < timeout_cycles) {
      if (producer_may_proceed(barriers)) {
        result = 1;
        break;
      }
    }
    *outcome = result;
  }
}

int main() {
  if (int skip = faultline::repro::require_device(7, 0)) return skip;
  int clock_khz = 0;
  FL_CUDA_OK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  long long timeout_cycles = static_cast<long long>(clock_khz > 0 ? clock_khz : 2000000) * 200;  // ~0.2 s
  int* d_outcome = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_outcome, sizeof(int)));
  FL_CUDA_OK(cudaMemset(d_outcome, 0, sizeof(int)));
  pipeline_kernel<<<1, 32 * (kConsumers + 1)>>>(d_outcome, timeout_cycles);
  FL_CUDA_OK(cudaGetLastError());
  FL_CUDA_OK(cudaDeviceSynchronize());
  int outcome = 0;
  FL_CUDA_OK(cudaMemcpy(&outcome, d_outcome, sizeof(int), cudaMemcpyDeviceToHost));
  cudaFree(d_outcome);
  if (outcome == 0) return 3;
  return faultline::repro::verdict(
      outcome == 2, outcome == 2 ? "hang: producer timed out waiting for arrivals" : "producer proceeded");
}
