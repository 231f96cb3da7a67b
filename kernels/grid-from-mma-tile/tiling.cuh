// Mechanism: the launch grid is sized from one tile shape while each CTA computes another. Sizing by the
// 128-row MMA tile when a CTA only covers its 64-row per-CTA tile launches half the CTAs needed, and the
// bottom half of the output is never written.
// Source: https://github.com/NVIDIA/cutlass/issues/2494
// Fix: size the grid from the tile a CTA actually computes.
#pragma once

#include "portability.hpp"

constexpr int kMmaTileM = 128;  // rows of the MMA atom layout
constexpr int kCtaTileM = 64;   // rows one CTA computes

FL_HD inline int grid_rows(int m) {
#if FAULTLINE_FIXED
  return (m + kCtaTileM - 1) / kCtaTileM;
#else
  return (m + kMmaTileM - 1) / kMmaTileM;
#endif
}

// Work of CTA `cta` on an m-row output: marks the rows it writes.
FL_HD inline void cta_rows(int cta, int m, int* written, int row_in_tile) {
  int row = cta * kCtaTileM + row_in_tile;
  if (row < m) written[row] = 1;
}

constexpr int kRows = 1000;
