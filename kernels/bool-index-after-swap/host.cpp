// Host harness (modeled: no launch on a CPU). A K-major A and an MN-major B through the dispatcher with
// swap_ab (`--swap-ab 0` to keep the operands in place), and the block the kernel would be launched with,
// judged against CUDA's limit of 1024 threads per block (the same on every GPU since compute capability
// 2.0), not against the block-K table. Without the swap A stays in the A slot, its flag is the right one,
// and the buggy block fits; the GPU harness makes the real launch.
#include <string>

#include "block_config.cuh"
#include "harness_options.hpp"
#include "verdict.hpp"

constexpr int kCudaMaxThreadsPerBlock = 1024;

int main(int argc, char** argv) {
  const bool k_major[2] = {true, false};
  const bool swap_ab = faultline::repro::int_option(argc, argv, "swap-ab", 1) != 0;
  const int threads = threads_per_block(k_major, swap_ab);
  const bool too_big = threads > kCudaMaxThreadsPerBlock;
  return faultline::repro::verdict(
      too_big, std::string(swap_ab ? "swapped" : "unswapped") + " operands: block_k " +
                   std::to_string(choose_block_k(k_major, swap_ab)) + " needs " + std::to_string(threads) +
                   " threads per block" +
                   (too_big ? ", over CUDA's 1024: invalid configuration argument" : ""));
}
