// Host harness: the mixed-type MMA on the CPU (only the fixed variant compiles).
#include <cmath>
#include <string>

#include "fp8_mma.cuh"
#include "verdict.hpp"

int main() {
  E4M3 a[kLength];
  E5M2 b[kLength];
  for (int i = 0; i < kLength; ++i) a[i].bits = kE4M3Bits[i], b[i].bits = kE5M2Bits[i];
  float dot = Fp8Mma<E4M3, E5M2>::dot(a, b, kLength);
  return faultline::repro::verdict(std::fabs(dot - kExpectedDot) > 1e-6f,
                                   "e4m3 x e5m2 dot = " + std::to_string(dot) + " (expected -1)");
}
