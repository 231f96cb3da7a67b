// Host harness: the launch configuration the kernel would request, checked against the Hopper limit
// (`--head-dim N` sets the head dimension: 16 and 8, as in the report, show the symptom; from 32 up nothing is
// padded and the trigger is gone; between, it depends on whether the stage count reaches its cap).
#include <string>

#include "harness_options.hpp"
#include "stages.cuh"
#include "verdict.hpp"

int main(int argc, char** argv) {
  const int head_dim = faultline::repro::int_option(argc, argv, "head-dim", kSmallHeadDim);
  int bytes = requested_smem(head_dim, kHopperSmemPerCta);
  return faultline::repro::verdict(
      bytes > kHopperSmemPerCta,
      "head_dim " + std::to_string(head_dim) + ": " +
          std::to_string(pick_stages(head_dim, kHopperSmemPerCta)) + " stages need " + std::to_string(bytes) +
          " bytes of shared memory; a CTA may use " + std::to_string(kHopperSmemPerCta));
}
