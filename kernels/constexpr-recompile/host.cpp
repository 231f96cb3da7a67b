// Host harness: eight calls with eight sequence lengths through the JIT cache. NVRTC needs no GPU, so the
// compilations (the symptom) are counted and timed here; running the kernels is the GPU harness's part.
// `--seq-len N` gives every call the same length, which removes the trigger (one length, one compilation).
#include <string>

#include "harness_options.hpp"
#include "jit_cache.hpp"
#include "verdict.hpp"

int main(int argc, char** argv) {
  const int same_len = faultline::repro::int_option(argc, argv, "seq-len", 0);
  faultline::repro::JitCache cache;
  for (int call = 0; call < faultline::repro::kCalls; ++call) {
    const int seq_len = same_len > 0 ? same_len : faultline::repro::seq_len_of_call(call);
    std::string error;
    if (!cache.get(faultline::repro::kernel_source(seq_len), &error)) {
      std::fprintf(stderr, "NVRTC failed: %s\n", error.c_str());
      return 3;
    }
  }
  char detail[160];
  std::snprintf(detail, sizeof detail, "%d compilations for %d calls, %.3f s compiling", cache.compilations(),
                faultline::repro::kCalls, cache.compile_seconds());
  return faultline::repro::verdict(cache.compilations() > 1, detail);
}
