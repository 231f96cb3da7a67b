// Host harness: eight calls with eight sequence lengths through the JIT cache. NVRTC needs no GPU, so the
// compilations (the symptom) are counted and timed here; running the kernels is the GPU harness's part.
#include <string>

#include "jit_cache.hpp"
#include "verdict.hpp"

int main() {
  faultline::repro::JitCache cache;
  for (int call = 0; call < faultline::repro::kCalls; ++call) {
    std::string error;
    if (!cache.get(faultline::repro::kernel_source(faultline::repro::seq_len_of_call(call)), &error)) {
      std::fprintf(stderr, "NVRTC failed: %s\n", error.c_str());
      return 3;
    }
  }
  char detail[160];
  std::snprintf(detail, sizeof detail, "%d compilations for %d calls, %.3f s compiling", cache.compilations(),
                faultline::repro::kCalls, cache.compile_seconds());
  return faultline::repro::verdict(cache.compilations() > 1, detail);
}
