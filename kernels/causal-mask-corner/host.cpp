// Host harness: every query row against the bottom-right-aligned reference.
#include <cmath>
#include <string>

#include "causal_mask.cuh"
#include "verdict.hpp"

int main() {
  int wrong = 0;
  for (int q = 0; q < kSeqQ; ++q) wrong += std::fabs(attend(q, false) - attend(q, true)) > 1e-5f;
  return faultline::repro::verdict(wrong > 0,
                                   std::to_string(wrong) + " of " + std::to_string(kSeqQ) +
                                       " query rows differ from the bottom-right causal reference");
}
