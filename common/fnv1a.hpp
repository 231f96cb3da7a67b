// 64-bit FNV-1a: a stable hash that is the same on every platform and run, for model checksums, model
// versions and per-stratum sampling seeds. Chain calls by passing the previous hash as `h`.
#pragma once

#include <cstdint>
#include <string_view>

namespace faultline::common {

constexpr uint64_t kFnv1aOffset = 14695981039346656037ull;

inline uint64_t fnv1a(std::string_view data, uint64_t h = kFnv1aOffset) {
  for (unsigned char c : data) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace faultline::common
