// Table I of the study from the store: raw, candidate, sampled and finally labeled issues per repository.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::funnel {

struct FunnelRow {
  std::string repo;
  int raw = 0;
  int candidates = 0;
  int sampled = 0;   // kept in the sample (replacements included, exclusions not)
  int excluded = 0;  // taken out of the sample with a reason
  int labeled = 0;   // issues with a final manual label and not excluded: the study's "final" column
};

// Rows sorted by repository name, followed by nothing else; use funnel_total for the sum.
std::vector<FunnelRow> compute_funnel(datasets::Database& db, const std::string& sample_name);
FunnelRow funnel_total(const std::vector<FunnelRow>& rows);
nlohmann::json funnel_json(const std::vector<FunnelRow>& rows);

}  // namespace faultline::funnel
