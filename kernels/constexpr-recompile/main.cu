// GPU harness: the same calls, each also loaded and run through the runtime's library API, so compile time
// and run time are measured apart. No driver API: without a GPU the harness starts and reports a skip.
#include <chrono>
#include <string>

#include "cuda_harness.cuh"
#include "jit_cache.hpp"

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
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
    cudaLibrary_t library;
    cudaKernel_t kernel;
    FL_CUDA_OK(
        cudaLibraryLoadData(&library, cache.ptx(source).c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    FL_CUDA_OK(cudaLibraryGetKernel(&kernel, library, "scale_rows"));
    void* args[] = {&d_x, &seq_len};
    auto start = std::chrono::steady_clock::now();
    FL_CUDA_OK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(128), args, 0, nullptr));
    FL_CUDA_OK(cudaDeviceSynchronize());
    run_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    FL_CUDA_OK(cudaLibraryUnload(library));
  }
  cudaFree(d_x);
  char detail[200];
  std::snprintf(detail, sizeof detail, "%d compilations for %d calls: %.3f s compiling, %.6f s running",
                cache.compilations(), faultline::repro::kCalls, cache.compile_seconds(), run_seconds);
  return faultline::repro::verdict(cache.compilations() > 1, detail);
}
