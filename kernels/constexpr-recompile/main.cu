// GPU harness: the same calls, each also loaded and run through the driver API, so compile time and run
// time are measured apart.
#include <cuda.h>

#include <chrono>
#include <string>

#include "cuda_harness.cuh"
#include "jit_cache.hpp"

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  FL_CUDA_OK(cudaFree(nullptr));  // creates the primary context the driver API uses below
  float* d_x = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_x, 1024 * sizeof(float)));
  faultline::repro::JitCache cache;
  double run_seconds = 0;
  for (int call = 0; call < faultline::repro::kCalls; ++call) {
    int seq_len = faultline::repro::seq_len_of_call(call);
    std::string source = faultline::repro::kernel_source(seq_len), error;
    if (!cache.get(source, &error)) {
      std::fprintf(stderr, "NVRTC failed: %s\n", error.c_str());
      return 3;
    }
    CUmodule module;
    CUfunction function;
    if (cuModuleLoadData(&module, cache.ptx(source).c_str()) != CUDA_SUCCESS ||
        cuModuleGetFunction(&function, module, "scale_rows") != CUDA_SUCCESS) {
      std::fprintf(stderr, "loading the PTX failed\n");
      return 3;
    }
    void* args[] = {&d_x, &seq_len};
    auto start = std::chrono::steady_clock::now();
    cuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr);
    FL_CUDA_OK(cudaDeviceSynchronize());
    run_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cuModuleUnload(module);
  }
  cudaFree(d_x);
  char detail[200];
  std::snprintf(detail, sizeof detail, "%d compilations for %d calls: %.3f s compiling, %.6f s running",
                cache.compilations(), faultline::repro::kCalls, cache.compile_seconds(), run_seconds);
  return faultline::repro::verdict(cache.compilations() > 1, detail);
}
