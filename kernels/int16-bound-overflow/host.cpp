// Host harness: the softmax step of the kernel on the CPU, one row of 40000 keys.
#include <cmath>
#include <string>
#include <vector>

#include "online_softmax.cuh"
#include "verdict.hpp"

int main() {
  std::vector<float> scores(kLongRow);
  for (int c = 0; c < kLongRow; ++c) scores[c] = score_at(c);
  float mass = softmax_row_mass(scores.data(), kLongRow);
  bool broken = !std::isfinite(mass) || std::fabs(mass - 1.f) > 1e-2f;
  return faultline::repro::verdict(broken, "row of " + std::to_string(kLongRow) + " keys has softmax mass " +
                                               std::to_string(mass) + " (expected 1)");
}
