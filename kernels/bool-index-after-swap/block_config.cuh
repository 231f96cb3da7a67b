// Mechanism: the block-K size is looked up in a two-entry table with a boolean used as the index. When
// the dispatcher swaps A and B, the flag it passes now describes the other operand, the lookup picks the
// K-major entry for an MN-major operand, and the kernel is launched with an illegal configuration.
// Source: https://github.com/deepseek-ai/DeepGEMM/issues/190
// Fix: index with the layout of the operand that actually lands in the A slot after the swap.
#pragma once

#include "portability.hpp"

// block_k by layout, indexed by the "is K-major" flag: 0 = MN-major (64), 1 = K-major (128).
FL_HD inline int block_k_by_layout(bool k_major) {
  const int table[2] = {64, 128};
  return table[k_major];
}

// Threads the kernel spends per K element of the A-slot operand: an MN-major operand is loaded with twice
// as many threads (its rows are strided), so the table's entries both fill a 1024-thread block.
FL_HD inline int threads_per_k(bool a_slot_k_major) { return a_slot_k_major ? 8 : 16; }

// k_major[0] describes A, k_major[1] describes B, as the caller passed them.
FL_HD inline bool a_slot_is_k_major(const bool* k_major, bool swap_ab) { return k_major[swap_ab ? 1 : 0]; }

FL_HD inline int choose_block_k(const bool* k_major, bool swap_ab) {
#if FAULTLINE_FIXED
  bool a_slot_k_major = a_slot_is_k_major(k_major, swap_ab);
#else
  (void)swap_ab;
  bool a_slot_k_major = k_major[0];  // still A's flag although B now sits in the A slot
#endif
  return block_k_by_layout(a_slot_k_major);
}

// The launch the kernel asks for: block_k elements of K, loaded by the A-slot operand's threads per element.
FL_HD inline int threads_per_block(const bool* k_major, bool swap_ab) {
  return choose_block_k(k_major, swap_ab) * threads_per_k(a_slot_is_k_major(k_major, swap_ab));
}
