// Host harness: dispatch for 12 query heads over 4 KV heads, then check the head mapping.
#include <string>

#include "dispatch.cuh"
#include "verdict.hpp"

int main() {
  int group = kQueryHeads / kKvHeads;
  int variant = dispatch_group_size(group);
  if (variant == kNoVariant) {
    return faultline::repro::verdict(true, "RuntimeError: Unsupported group_size: " + std::to_string(group));
  }
  int wrong = 0;
  for (int h = 0; h < kQueryHeads; ++h) wrong += kv_head_of(h, group) != h / 3;
  return faultline::repro::verdict(wrong > 0, "variant " + std::to_string(variant) + " maps " +
                                                  std::to_string(kQueryHeads - wrong) +
                                                  " of 12 heads correctly");
}
