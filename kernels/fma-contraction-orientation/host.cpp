// Host harness: the orientation of 64 collinear pairs; any non-zero is a wrong turn.
#include <string>

#include "orientation.cuh"
#include "verdict.hpp"

int main() {
  int nonzero = 0;
  for (int i = 0; i < kPoints; ++i) nonzero += orientation(i) != 0.f;
  return faultline::repro::verdict(nonzero > 0, std::to_string(nonzero) + " of " + std::to_string(kPoints) +
                                                    " collinear pairs get a non-zero orientation");
}
