// Host harness: the softmax step of the kernel on the CPU, one row of 40000 keys (`--keys N` sets the row
// length; one of at most 32767 fits the 16-bit bound and removes the trigger).
#include <cmath>
#include <string>
#include <vector>

#include "harness_options.hpp"
#include "online_softmax.cuh"
#include "verdict.hpp"

int main(int argc, char** argv) {
  const int keys = faultline::repro::int_option(argc, argv, "keys", kLongRow);
  std::vector<float> scores(keys);
  for (int c = 0; c < keys; ++c) scores[c] = score_at(c);
  float mass = softmax_row_mass(scores.data(), keys);
  bool broken = !std::isfinite(mass) || std::fabs(mass - 1.f) > 1e-2f;
  return faultline::repro::verdict(broken, "row of " + std::to_string(keys) + " keys has softmax mass " +
                                               std::to_string(mass) + " (expected 1)");
}
