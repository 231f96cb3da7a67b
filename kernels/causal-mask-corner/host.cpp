// Host harness: decodes seq_q tokens (default 3, `--seq-q N` for 1..8) against the 8-token cache with the
// kernel's mask and compares every row with the last rows of full-sequence causal attention. With seq_q 8
// the two corners coincide, so the buggy mask passes: the verdict depends on the input, not on the variant.
#include <string>
#include <vector>

#include "causal_mask.cuh"
#include "full_sequence_reference.hpp"
#include "harness_options.hpp"
#include "verdict.hpp"

int main(int argc, char** argv) {
  const int seq_q = faultline::repro::int_option(argc, argv, "seq-q", kDefaultSeqQ);
  if (seq_q < 1 || seq_q > kSeqK) return 2;
  std::vector<float> out(seq_q * kHeadDim);
  for (int q = 0; q < seq_q; ++q) attend_row(q, seq_q, &out[q * kHeadDim]);
  const int wrong = rows_off_reference(out.data(), seq_q);
  return faultline::repro::verdict(wrong > 0, std::to_string(wrong) + " of " + std::to_string(seq_q) +
                                                  " query rows (seqlen_q " + std::to_string(seq_q) +
                                                  ", seqlen_k " + std::to_string(kSeqK) +
                                                  ") differ from full-sequence causal attention");
}
