// Host harness: the scan steps run thread by thread in index order, as one warp after another would,
// which is one of the interleavings the GPU may choose.
#include <string>
#include <vector>

#include "block_scan.cuh"
#include "verdict.hpp"

int main() {
  std::vector<int> a(kScanWidth), b(kScanWidth), reference(kScanWidth);
  int running = 0;
  for (int i = 0; i < kScanWidth; ++i) {
    a[i] = weight_at(i);
    reference[i] = running += a[i];
  }
  int* in = a.data();
  int* spare = b.data();
  for (int offset = 1; offset < kScanWidth; offset *= 2) {
    int* out = scan_output(in, spare);
    for (int i = 0; i < kScanWidth; ++i) scan_step(in, out, i, offset);
    if (out != in) spare = in, in = out;
  }
  int wrong = 0;
  for (int i = 0; i < kScanWidth; ++i) wrong += in[i] != reference[i];
  int target = reference[kScanWidth / 2];  // should select token kScanWidth/2 + 1
  int token = sample_token(in, target);
  return faultline::repro::verdict(wrong > 0, std::to_string(wrong) + " of " + std::to_string(kScanWidth) +
                                                  " CDF entries wrong; sampled token " +
                                                  std::to_string(token) + ", expected " +
                                                  std::to_string(sample_token(reference.data(), target)));
}
