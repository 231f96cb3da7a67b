// Host harness: det2's source expression compiled by the host compiler with contraction allowed
// (-O2 -ffp-contract=fast, see CMakeLists.txt) for an FMA-capable target, the CPU's counterpart of nvcc's
// default --fmad=true. The sign of each of the 64 collinear pairs' determinant is compared with the exact
// determinant's (exact_orientation, in double). Nothing here computes a fused result by hand: whether the
// buggy expression is fused is the compiler's decision, and built with -ffp-contract=off (as the oracle test
// does) it is not, every sign is right and the verdict is "correct". Skipped on a CPU without FMA.
#include <string>

#include "orientation.cuh"
#include "verdict.hpp"

namespace {

#if defined(__x86_64__) || defined(__i386__)
bool cpu_has_fma() { return __builtin_cpu_supports("fma"); }
#define FL_FMA_TARGET __attribute__((target("fma"), flatten))
#else
bool cpu_has_fma() { return true; }  // fused multiply-add is in the base AArch64 and POWER instruction sets
#define FL_FMA_TARGET __attribute__((flatten))
#endif

// det2 inlined (flatten) into a function compiled for an FMA target, where contraction may fuse it.
FL_FMA_TARGET float det2_on_fma_target(float a, float b, float c, float d) { return det2(a, b, c, d); }

}  // namespace

int main() {
  if (!cpu_has_fma()) return faultline::repro::skipped("this CPU has no fused multiply-add");
  int wrong = 0;
  for (int i = 0; i < kPoints; ++i) {
    const Pair p = collinear_pair(i);
    wrong += sign_of(det2_on_fma_target(p.a, p.b, p.c, p.d)) != exact_orientation(p);
  }
  return faultline::repro::verdict(wrong > 0,
                                   std::to_string(wrong) + " of " + std::to_string(kPoints) +
                                       " collinear pairs get an orientation other than the exact one (0)");
}
