// Screening decisions and predictions hold for an issue as they read it: the store drops them when a write
// changes what they read (migration 13). Counted before and after a write (a mine, an import), they say how
// many that write left to be made again.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

struct ResultCounts {
  int64_t screening_decisions = 0;
  int64_t predictions = 0;
};
ResultCounts count_results(Database& db);
// What the writes between the two counts dropped.
ResultCounts dropped_between(const ResultCounts& before, const ResultCounts& after);
// `screening_outdated` and `predictions_outdated`, for a command's --json summary.
nlohmann::json outdated_json(const ResultCounts& dropped);
// A line for each kind dropped, naming the command that makes them again; empty when none was.
std::string outdated_lines(const ResultCounts& dropped);

}  // namespace faultline::datasets
