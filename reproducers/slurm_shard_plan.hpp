// How the suite's runs are split into the shards of a Slurm job array: balanced by what each run took
// before, so that the array finishes when its slowest shard does and as early as it can.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "datasets/store/suite_store.hpp"
#include "reproducers/manifest.hpp"

namespace faultline::reproducers {

// One variant of one reproducer in one mode.
struct PlannedRun {
  std::string id;
  std::string mode;
  std::string variant;
  bool operator==(const PlannedRun&) const = default;
};

// Every run of `manifests` in `modes`, in the suite's order.
std::vector<PlannedRun> planned_suite_runs(const std::vector<Manifest>& manifests,
                                           const std::vector<std::string>& modes);

// Seconds one run took before, by (id, mode, variant).
using Durations = std::map<std::tuple<std::string, std::string, std::string>, double>;

// From the store's latest results: a result's seconds over the runs it made (suite --repeat sums them).
Durations durations_from(const std::vector<datasets::SuiteResult>& latest);

struct Shard {
  std::vector<PlannedRun> runs;  // in the order given to plan_shards
  double estimate_s = 0;         // the sum of its runs' earlier durations (times --repeat outside build mode)
};

struct ShardPlan {
  std::vector<Shard> shards;
  bool by_durations = false;  // false: nothing ran before, so the runs were dealt round-robin
};

// Splits `runs` into `shards` shards. With earlier durations: longest processing time first (each run, the
// longest first, goes to the shard with the least work so far; ties to the lower shard), a run never seen
// before counting as the mean of those that were. Without any: round-robin in the given order.
// Throws faultline::Error when `shards` is below 1 or above the number of runs.
ShardPlan plan_shards(const std::vector<PlannedRun>& runs, int shards, const Durations& durations,
                      int repeat);

// Throws faultline::Error naming the first shard whose estimate exceeds `minutes` (a plan without
// durations cannot be checked and passes).
void check_time_limit(const ShardPlan& plan, int minutes);

}  // namespace faultline::reproducers
