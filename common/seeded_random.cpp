#include "common/seeded_random.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

namespace faultline::common {

std::vector<size_t> seeded_permutation(size_t population, uint64_t seed, size_t prefix) {
  // mt19937_64's output sequence is fixed by the C++ standard; the bounded draw below is ours
  // (rejection sampling), because std::uniform_int_distribution differs between libraries.
  std::mt19937_64 engine(seed);
  auto below = [&](uint64_t n) {
    uint64_t limit = std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
    uint64_t x;
    do x = engine();
    while (x >= limit);
    return x % n;
  };
  std::vector<size_t> items(population);
  std::iota(items.begin(), items.end(), 0);
  prefix = std::min(prefix, population);
  for (size_t i = 0; i < prefix; ++i) std::swap(items[i], items[i + below(population - i)]);
  return items;
}

std::vector<size_t> seeded_choice(size_t population, size_t k, uint64_t seed) {
  std::vector<size_t> items = seeded_permutation(population, seed, k);
  items.resize(k);
  std::sort(items.begin(), items.end());
  return items;
}

}  // namespace faultline::common
