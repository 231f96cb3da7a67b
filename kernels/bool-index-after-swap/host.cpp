// Host harness: the swapped case (A K-major, B MN-major, swap_ab) through the dispatcher.
#include <string>

#include "block_config.cuh"
#include "verdict.hpp"

int main() {
  const bool k_major[2] = {true, false};
  const bool swap_ab = true;
  int block_k = choose_block_k(k_major, swap_ab);
  bool legal = is_legal(block_k, k_major[1]);
  return faultline::repro::verdict(
      !legal, "block_k " + std::to_string(block_k) +
                  " chosen for an MN-major A slot: " + std::to_string(block_k * kThreadsPerK) +
                  " threads per block" + (legal ? "" : " (illegal configuration)"));
}
