// GPU harness: the state lives in device memory across one launch per batch.
#include <cmath>
#include <string>
#include <vector>

#include "batch_state.cuh"
#include "cuda_harness.cuh"

__global__ void batch_kernel(QuantState* state, const float* x, float* restored) {
  __shared__ signed char q[kBatchSize];
  if (threadIdx.x == 0) {
    begin_batch(state);
    for (int b = 0; b < kBlocksPerBatch; ++b) quantize_block(state, x + b * kBlock, q + b * kBlock);
  }
  __syncthreads();
  int b = threadIdx.x / kBlock, i = threadIdx.x % kBlock;
  restored[threadIdx.x] = dequantize(state, q + b * kBlock, b, i);
}

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  QuantState* d_state = nullptr;
  float *d_x = nullptr, *d_restored = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_state, sizeof(QuantState)));
  FL_CUDA_OK(cudaMemset(d_state, 0, sizeof(QuantState)));
  FL_CUDA_OK(cudaMalloc(&d_x, kBatchSize * sizeof(float)));
  FL_CUDA_OK(cudaMalloc(&d_restored, kBatchSize * sizeof(float)));
  int wrong_batches = 0;
  for (int batch = 0; batch < kBatches; ++batch) {
    std::vector<float> x(kBatchSize), restored(kBatchSize);
    for (int i = 0; i < kBatchSize; ++i) x[i] = input_value(batch, i);
    FL_CUDA_OK(cudaMemcpy(d_x, x.data(), kBatchSize * sizeof(float), cudaMemcpyHostToDevice));
    batch_kernel<<<1, kBatchSize>>>(d_state, d_x, d_restored);
    FL_CUDA_OK(cudaGetLastError());
    FL_CUDA_OK(cudaMemcpy(restored.data(), d_restored, kBatchSize * sizeof(float), cudaMemcpyDeviceToHost));
    float err = 0;
    for (int i = 0; i < kBatchSize; ++i) err = std::fmax(err, std::fabs(restored[i] - x[i]));
    wrong_batches += err > 0.1f;
  }
  cudaFree(d_state);
  cudaFree(d_x);
  cudaFree(d_restored);
  return faultline::repro::verdict(
      wrong_batches > 0,
      std::to_string(wrong_batches) + " of " + std::to_string(kBatches) + " batches dequantize wrongly");
}
