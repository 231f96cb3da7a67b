// GPU harness: the same calls, each also loaded and run through the runtime's library API, so compile time
// and run time are measured apart. No driver API: without a GPU the harness starts and reports a skip.
// The symptom is measured: the compilations after the first call take longer than all the calls' kernel
// runs, i.e. the per-call cost is dominated by recompiling, not by the work. The kernel's output is checked,
// so a kernel that did nothing is a harness error, not a fast run.
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "cuda_harness.cuh"
#include "jit_cache.hpp"

namespace {

constexpr int kElements = 1024;      // the longest sequence of seq_len_of_call
constexpr int kLaunchesPerCall = 2;  // the first loads the library's code untimed; the second is timed

// Every launch halves x[i] for i < seq_len, and call c has seq_len 128 * (c + 1): element i is in
// 8 - i / 128 calls. From 1, it ends at 2^-(launches per call * calls it is in), exact in float.
float expected_x(int i) { return std::ldexp(1.f, -kLaunchesPerCall * (faultline::repro::kCalls - i / 128)); }

}  // namespace

int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  float* d_x = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_x, kElements * sizeof(float)));
  std::vector<float> x(kElements, 1.f);
  FL_CUDA_OK(cudaMemcpy(d_x, x.data(), kElements * sizeof(float), cudaMemcpyHostToDevice));
  faultline::repro::JitCache cache;
  double run_seconds = 0, first_compile_seconds = 0;
  for (int call = 0; call < faultline::repro::kCalls; ++call) {
    int seq_len = faultline::repro::seq_len_of_call(call);
    std::string source = faultline::repro::kernel_source(seq_len), error;
    if (!cache.get(source, &error)) {
      std::fprintf(stderr, "NVRTC failed: %s\n", error.c_str());
      return faultline::repro::kHarnessError;
    }
    if (call == 0) first_compile_seconds = cache.compile_seconds();
    cudaLibrary_t library;
    cudaKernel_t kernel;
    FL_CUDA_OK(
        cudaLibraryLoadData(&library, cache.ptx(source).c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    FL_CUDA_OK(cudaLibraryGetKernel(&kernel, library, "scale_rows"));
    void* args[] = {&d_x, &seq_len};
    for (int launch = 0; launch < kLaunchesPerCall; ++launch) {
      auto start = std::chrono::steady_clock::now();
      FL_CUDA_OK(
          cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(128), args, 0, nullptr));
      FL_CUDA_OK(cudaDeviceSynchronize());
      if (launch > 0)
        run_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    FL_CUDA_OK(cudaLibraryUnload(library));
  }
  FL_CUDA_OK(cudaMemcpy(x.data(), d_x, kElements * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(d_x);
  for (int i = 0; i < kElements; ++i) {
    if (x[i] != expected_x(i)) {
      std::fprintf(stderr, "x[%d] = %g after the calls, expected %g: the kernels did not do their work\n", i,
                   x[i], expected_x(i));
      return faultline::repro::kHarnessError;
    }
  }
  const double recompile_seconds = cache.compile_seconds() - first_compile_seconds;
  char detail[240];
  std::snprintf(
      detail, sizeof detail,
      "%d compilations for %d calls: %.6f s recompiling after the first call, %.6f s running kernels",
      cache.compilations(), faultline::repro::kCalls, recompile_seconds, run_seconds);
  return faultline::repro::verdict(recompile_seconds > run_seconds, detail);
}
