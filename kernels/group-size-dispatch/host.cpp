// Host harness: calls the library's decode entry for 12 query heads over 4 KV heads (`--query-heads N`
// for another multiple of 4) and runs every query head's decode step on the CPU. The symptom is the
// dispatcher's exception escaping the call, as the RuntimeError does in the issue; when the call returns,
// its output is compared with attention over repeat-interleaved KV heads. With 8 query heads (group size 2,
// a specialised kernel) the buggy dispatcher returns and the verdict is "correct".
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "dispatch.cuh"
#include "harness_options.hpp"
#include "repeated_kv_reference.hpp"
#include "verdict.hpp"

namespace {

// What the library's decode call does on the CPU: dispatch, then one decode step per query head.
std::vector<float> decode(int query_heads, int kv_heads) {
  const int variant = dispatch_group_size(query_heads, kv_heads);
  const int group = query_heads / kv_heads;
  std::vector<float> out(static_cast<size_t>(query_heads) * kHeadDim);
  for (int h = 0; h < query_heads; ++h) {
    float* row = &out[h * kHeadDim];
    switch (variant) {
      case 1:
        decode_head<1>(h, group, row);
        break;
      case 2:
        decode_head<2>(h, group, row);
        break;
      case 4:
        decode_head<4>(h, group, row);
        break;
      case 8:
        decode_head<8>(h, group, row);
        break;
      default:
        decode_head<0>(h, group, row);
        break;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int query_heads = faultline::repro::int_option(argc, argv, "query-heads", kDefaultQueryHeads);
  if (query_heads <= 0 || query_heads % kKvHeads != 0) {
    std::fprintf(stderr, "--query-heads must be a positive multiple of %d\n", kKvHeads);
    return 2;
  }
  const std::string config =
      std::to_string(query_heads) + " query heads over " + std::to_string(kKvHeads) + " KV heads";
  std::vector<float> out;
  try {
    out = decode(query_heads, kKvHeads);
  } catch (const std::exception& e) {
    return faultline::repro::verdict(true, "decode call for " + config + " raised RuntimeError: " + e.what());
  }
  const int wrong = heads_off_reference(out, query_heads);
  return faultline::repro::verdict(wrong > 0,
                                   "decode call for " + config + " returned; " + std::to_string(wrong) +
                                       " query heads differ from attention over repeated KV heads");
}
