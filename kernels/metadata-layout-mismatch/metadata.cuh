// Mechanism: the host prepares the sparse-GEMM metadata (which of every 4 values is kept) row-major, but
// the kernel indexes it column-major. Each output element then gathers with another element's metadata.
// Source: https://github.com/NVIDIA/cutlass/issues/225
// Fix: read the metadata in the layout it was prepared in (or reorder it before the launch).
#pragma once

#include "portability.hpp"

constexpr int kMetaRows = 8;
constexpr int kMetaCols = 16;

FL_HD inline int prepared_index(int r, int c) { return r * kMetaCols + c; }  // row-major

FL_HD inline int kernel_index(int r, int c) {
#if FAULTLINE_FIXED
  return r * kMetaCols + c;
#else
  return c * kMetaRows + r;  // column-major
#endif
}

// Which of the 4 values of group (r, c) is kept, as the pruning chose it.
FL_HD inline int chosen_lane(int r, int c) { return (r * 3 + c * 5) % 4; }
FL_HD inline float dense_value(int r, int k) { return static_cast<float>(r * 100 + k); }

// The kernel's gather: the value of group (r, c) selected by the metadata it reads.
FL_HD inline float gather(const int* metadata, int r, int c) {
  return dense_value(r, c * 4 + metadata[kernel_index(r, c)]);
}
