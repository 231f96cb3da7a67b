// Mechanism: a per-call value (the sequence length) is baked into the kernel source as a compile-time
// constant, so the JIT cache, keyed by the source text, misses on every new length and recompiles: each
// call pays a full compilation that dwarfs the kernel's run time.
// Source: https://github.com/triton-lang/triton/issues/6480
// Fix: pass the value as a kernel argument; one compiled kernel serves every length.
#pragma once

#include <nvrtc.h>

#include <chrono>
#include <map>
#include <string>

namespace faultline::repro {

const char* const kKernelBody = R"(
extern "C" __global__ void scale_rows(float* x, int seq_len_arg) {
  int n = SEQ_LEN;
  for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] *= 0.5f;
})";

// Kernel source for one call with `seq_len`.
inline std::string kernel_source(int seq_len) {
#if FAULTLINE_FIXED
  (void)seq_len;
  return std::string("#define SEQ_LEN seq_len_arg\n") + kKernelBody;
#else
  return "#define SEQ_LEN " + std::to_string(seq_len) + "\n" + kKernelBody;
#endif
}

// A JIT cache like the library's: compile with NVRTC on a miss, keyed by the source text.
class JitCache {
 public:
  // Returns false (and the log in `error`) when NVRTC fails.
  bool get(const std::string& source, std::string* error) {
    if (ptx_.count(source)) return true;
    auto start = std::chrono::steady_clock::now();
    nvrtcProgram program;
    nvrtcCreateProgram(&program, source.c_str(), "scale_rows.cu", 0, nullptr, nullptr);
    const char* options[] = {"--gpu-architecture=compute_90"};
    nvrtcResult result = nvrtcCompileProgram(program, 1, options);
    if (result != NVRTC_SUCCESS) {
      *error = nvrtcGetErrorString(result);
      nvrtcDestroyProgram(&program);
      return false;
    }
    size_t size = 0;
    nvrtcGetPTXSize(program, &size);
    std::string ptx(size, '\0');
    nvrtcGetPTX(program, ptx.data());
    nvrtcDestroyProgram(&program);
    ptx_[source] = ptx;
    ++compilations_;
    compile_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return true;
  }
  int compilations() const { return compilations_; }
  double compile_seconds() const { return compile_seconds_; }
  const std::string& ptx(const std::string& source) const { return ptx_.at(source); }

 private:
  std::map<std::string, std::string> ptx_;
  int compilations_ = 0;
  double compile_seconds_ = 0;
};

constexpr int kCalls = 8;
inline int seq_len_of_call(int call) { return 128 * (call + 1); }

}  // namespace faultline::repro
