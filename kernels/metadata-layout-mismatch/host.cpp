// Host harness: prepare metadata as the host code does, gather as the kernel does, compare.
#include <string>

#include "metadata.cuh"
#include "verdict.hpp"

int main() {
  int metadata[kMetaRows * kMetaCols];
  for (int r = 0; r < kMetaRows; ++r) {
    for (int c = 0; c < kMetaCols; ++c) metadata[prepared_index(r, c)] = chosen_lane(r, c);
  }
  int wrong = 0;
  for (int r = 0; r < kMetaRows; ++r) {
    for (int c = 0; c < kMetaCols; ++c)
      wrong += gather(metadata, r, c) != dense_value(r, c * 4 + chosen_lane(r, c));
  }
  return faultline::repro::verdict(wrong > 0, std::to_string(wrong) + " of " +
                                                  std::to_string(kMetaRows * kMetaCols) +
                                                  " gathered values differ from the reference");
}
