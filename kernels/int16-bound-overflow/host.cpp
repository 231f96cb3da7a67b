// Host harness: the softmax step of the kernel on the CPU, one row of 40000 keys (`--keys N` sets the row
// length; one of at most 32767 fits the 16-bit bound and removes the trigger), compared with a
// double-precision reference over all N columns.
#include <cmath>
#include <string>
#include <vector>

#include "harness_options.hpp"
#include "online_softmax.cuh"
#include "reference.hpp"
#include "verdict.hpp"

int main(int argc, char** argv) {
  const int keys = faultline::repro::int_option(argc, argv, "keys", kLongRow);
  std::vector<float> scores(keys), values(keys);
  for (int c = 0; c < keys; ++c) {
    scores[c] = score_at(c);
    values[c] = value_at(c, keys);
  }
  const float out = attention_row_output(scores.data(), values.data(), keys);
  const double expected = reference_row_output(scores, values);
  const bool broken = !std::isfinite(out) || std::fabs(out - expected) > kOutputTolerance;
  return faultline::repro::verdict(broken, "row of " + std::to_string(keys) + " keys: output " +
                                               std::to_string(out) + ", reference " +
                                               std::to_string(expected));
}
