// Host harness: launches the grid as the kernel would, CTA by CTA, and counts unwritten rows.
#include <string>
#include <vector>

#include "tiling.cuh"
#include "verdict.hpp"

int main() {
  std::vector<int> written(kRows, 0);
  for (int cta = 0; cta < grid_rows(kRows); ++cta) {
    for (int r = 0; r < kCtaTileM; ++r) cta_rows(cta, kRows, written.data(), r);
  }
  int missing = 0;
  for (int w : written) missing += w == 0;
  return faultline::repro::verdict(missing > 0, std::to_string(missing) + " of " + std::to_string(kRows) +
                                                    " output rows never computed with " +
                                                    std::to_string(grid_rows(kRows)) + " CTAs");
}
