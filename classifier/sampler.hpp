// The study's sample: repository-stratified, proportional by largest remainder, drawn with a seed,
// with replacement of excluded reports by the nearest-in-time candidate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "datasets/database.hpp"

namespace faultline::classifier {

// Shares of `total` proportional to `counts`, each floor(count*total/sum) plus one for the largest
// remainders until the shares sum to `total`. Equal remainders: the larger count first, then the earlier
// index.
std::vector<int> allocate_largest_remainder(const std::vector<int>& counts, int total);

// A portable uniform draw: the same seed gives the same sample on every platform. Returns k distinct
// indexes below `population`, ascending.
std::vector<size_t> seeded_choice(size_t population, size_t k, uint64_t seed);
// The indexes 0..population-1 with the first `prefix` positions drawn uniformly (a full shuffle when
// prefix >= population), by the same portable generator.
std::vector<size_t> seeded_permutation(size_t population, uint64_t seed, size_t prefix = SIZE_MAX);

struct StratumDraw {
  int candidates = 0;
  int allocated = 0;
};
// Draws sample `name` from the screened candidates, replacing an earlier sample of that name.
std::map<std::string, StratumDraw> draw_sample(datasets::Database& db, const std::string& name, int total,
                                               uint64_t seed);

struct Replacement {
  int64_t excluded_issue = 0;
  int64_t replacement_issue = 0;
  std::string replacement_key;
  int64_t distance_seconds = 0;
};
// Excludes a sampled issue and adds the unsampled candidate of its repository whose creation time is
// nearest; ties go to the earlier-created issue, then the lower number.
Replacement replace_in_sample(datasets::Database& db, const std::string& name, const std::string& repo,
                              int64_t number, const std::string& reason);

}  // namespace faultline::classifier
