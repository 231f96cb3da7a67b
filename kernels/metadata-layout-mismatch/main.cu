// GPU harness: one thread per metadata group gathers on the device.
#include <string>
#include <vector>

#include "cuda_harness.cuh"
#include "metadata.cuh"

__global__ void gather_kernel(const int* metadata, float* out) {
  int r = blockIdx.x, c = threadIdx.x;
  out[r * kMetaCols + c] = gather(metadata, r, c);
}

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  std::vector<int> metadata(kMetaRows * kMetaCols);
  for (int r = 0; r < kMetaRows; ++r) {
    for (int c = 0; c < kMetaCols; ++c) metadata[prepared_index(r, c)] = chosen_lane(r, c);
  }
  int* d_meta = nullptr;
  float* d_out = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_meta, metadata.size() * sizeof(int)));
  FL_CUDA_OK(cudaMalloc(&d_out, metadata.size() * sizeof(float)));
  FL_CUDA_OK(cudaMemcpy(d_meta, metadata.data(), metadata.size() * sizeof(int), cudaMemcpyHostToDevice));
  gather_kernel<<<kMetaRows, kMetaCols>>>(d_meta, d_out);
  FL_CUDA_OK(cudaGetLastError());
  std::vector<float> out(metadata.size());
  FL_CUDA_OK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(d_meta);
  cudaFree(d_out);
  int wrong = 0;
  for (int r = 0; r < kMetaRows; ++r) {
    for (int c = 0; c < kMetaCols; ++c)
      wrong += out[r * kMetaCols + c] != dense_value(r, c * 4 + chosen_lane(r, c));
  }
  return faultline::repro::verdict(wrong > 0,
                                   std::to_string(wrong) + " gathered values differ from the reference");
}
