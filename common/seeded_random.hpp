// Seeded draws that give the same result on every platform and standard library: samples and
// cross-validation folds must be reproducible from their seed alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace faultline::common {

// A portable uniform draw: the same seed gives the same sample on every platform. Returns k distinct
// indexes below `population`, ascending.
std::vector<size_t> seeded_choice(size_t population, size_t k, uint64_t seed);
// The indexes 0..population-1 with the first `prefix` positions drawn uniformly (a full shuffle when
// prefix >= population), by the same portable generator.
std::vector<size_t> seeded_permutation(size_t population, uint64_t seed, size_t prefix = SIZE_MAX);

}  // namespace faultline::common
