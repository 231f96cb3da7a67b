// The study's sample: repository-stratified, proportional by largest remainder, drawn with a seed,
// with replacement of excluded reports by the nearest-in-time candidate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::funnel {

// Shares of `total` proportional to `counts`, each floor(count*total/sum) plus one for the largest
// remainders until the shares sum to `total`. Equal remainders: the larger count first, then the earlier
// index.
std::vector<int> allocate_largest_remainder(const std::vector<int>& counts, int total);

struct StratumDraw {
  int candidates = 0;
  int allocated = 0;
};
// What a draw or a census recorded, and what of an earlier sample of that name it replaced when forced.
struct SampleDraw {
  std::map<std::string, StratumDraw> strata;  // by repository
  int labeled_dropped = 0;                    // labeled issues of the earlier sample left out of this one
  int exclusions_discarded = 0;               // the earlier sample's exclusions, with their reasons
};

// Draws sample `name` from the screened candidates, replacing an earlier sample of that name. A new draw
// that would drop issues of the old sample that raters have labeled, or discard its exclusions (with their
// reasons), is refused, naming them, unless `force`.
SampleDraw draw_sample(datasets::Database& db, const std::string& name, int total, uint64_t seed,
                       bool force = false);

// Records sample `name` as a census: every screened candidate, nothing drawn (how the bundled snapshot's
// labeled set came to be: its raters labeled every issue a person had judged in scope). Refuses, as
// draw_sample does, to drop labeled issues or discard exclusions of an earlier sample of that name unless
// `force`.
SampleDraw census_sample(datasets::Database& db, const std::string& name, bool force = false);

struct Replacement {
  std::string replacement_key;
  std::optional<int64_t> distance_seconds;  // none when either creation time is unknown
};
// Excludes a sampled issue and adds the unsampled candidate of its repository whose creation time is
// nearest; ties go to the earlier-created issue, then the lower number.
Replacement replace_in_sample(datasets::Database& db, const std::string& name, const std::string& repo,
                              int64_t number, const std::string& reason);

}  // namespace faultline::funnel
