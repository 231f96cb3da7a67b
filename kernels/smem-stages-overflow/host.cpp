// Host harness: the launch configuration the kernel would request, checked against the Hopper limit.
#include <string>

#include "stages.cuh"
#include "verdict.hpp"

int main() {
  int bytes = requested_smem(kSmallHeadDim, kHopperSmemPerCta);
  return faultline::repro::verdict(bytes > kHopperSmemPerCta,
                                   std::to_string(pick_stages(kSmallHeadDim, kHopperSmemPerCta)) +
                                       " stages need " + std::to_string(bytes) +
                                       " bytes of shared memory; a CTA may use " +
                                       std::to_string(kHopperSmemPerCta));
}
