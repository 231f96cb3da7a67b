// Mechanism: the block-K size is looked up in a two-entry table with a boolean used as the index. When
// the dispatcher swaps A and B, the flag it passes now describes the other operand, the lookup picks the
// K-major entry for an MN-major operand, and the kernel is launched with an illegal configuration.
// Source: https://github.com/deepseek-ai/DeepGEMM/issues/190
// Fix: index with the layout of the operand that actually lands in the A slot after the swap.
#pragma once

#include "portability.hpp"

constexpr int kThreadsPerK = 16;
constexpr int kMaxThreadsPerBlock = 1024;

// block_k by layout, indexed by the "is K-major" flag: 0 = MN-major (64), 1 = K-major (128).
FL_HD inline int block_k_by_layout(bool k_major) {
  const int table[2] = {64, 128};
  return table[k_major];
}

// k_major[0] describes A, k_major[1] describes B, as the caller passed them.
FL_HD inline int choose_block_k(const bool* k_major, bool swap_ab) {
#if FAULTLINE_FIXED
  bool a_slot_k_major = k_major[swap_ab ? 1 : 0];
#else
  (void)swap_ab;
  bool a_slot_k_major = k_major[0];  // still A's flag although B now sits in the A slot
#endif
  return block_k_by_layout(a_slot_k_major);
}

// A configuration is legal when the layout in the A slot supports block_k and the block fits.
FL_HD inline bool is_legal(int block_k, bool a_slot_k_major) {
  return block_k == block_k_by_layout(a_slot_k_major) && block_k * kThreadsPerK <= kMaxThreadsPerBlock;
}
