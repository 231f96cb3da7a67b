// GPU harness: dispatch on the host as the library does, then one thread per query head on the device.
#include <string>

#include "cuda_harness.cuh"
#include "dispatch.cuh"

__global__ void decode_kernel(int group_size, int* kv_head) {
  kv_head[threadIdx.x] = kv_head_of(threadIdx.x, group_size);
}

int main() {
  if (int skip = faultline::repro::require_device(7, 0)) return skip;
  int group = kQueryHeads / kKvHeads;
  if (dispatch_group_size(group) == kNoVariant) {
    return faultline::repro::verdict(true, "RuntimeError: Unsupported group_size: " + std::to_string(group));
  }
  int* d_heads = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_heads, kQueryHeads * sizeof(int)));
  decode_kernel<<<1, kQueryHeads>>>(group, d_heads);
  FL_CUDA_OK(cudaGetLastError());
  int heads[kQueryHeads];
  FL_CUDA_OK(cudaMemcpy(heads, d_heads, sizeof heads, cudaMemcpyDeviceToHost));
  cudaFree(d_heads);
  int wrong = 0;
  for (int h = 0; h < kQueryHeads; ++h) wrong += heads[h] != h / 3;
  return faultline::repro::verdict(wrong > 0, std::to_string(wrong) + " query heads read the wrong KV head");
}
