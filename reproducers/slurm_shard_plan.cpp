#include "reproducers/slurm_shard_plan.hpp"

#include <algorithm>
#include <numeric>

#include "common/error.hpp"
#include "reproducers/runner.hpp"

namespace faultline::reproducers {

std::vector<PlannedRun> planned_suite_runs(const std::vector<Manifest>& manifests,
                                           const std::vector<std::string>& modes) {
  std::vector<PlannedRun> out;
  for (const auto& m : manifests) {
    for (const auto& [mode, variant] : planned_runs(m, modes)) out.push_back({m.id, mode, variant});
  }
  return out;
}

Durations durations_from(const std::vector<datasets::SuiteResult>& latest) {
  Durations out;
  for (const auto& r : latest) {
    if (r.outcome == "skipped" || r.outcome == "lost") continue;  // neither measured the run
    out[{r.repro_id, r.mode, r.variant}] = r.seconds / std::max(1, r.runs);
  }
  return out;
}

ShardPlan plan_shards(const std::vector<PlannedRun>& runs, int shards, const Durations& durations,
                      int repeat) {
  if (shards < 1) throw Error("--shards must be at least 1, not " + std::to_string(shards));
  if (static_cast<size_t>(shards) > runs.size()) {
    throw Error("--shards " + std::to_string(shards) + " is more than the " + std::to_string(runs.size()) +
                " runs selected: a shard would have nothing to run");
  }
  ShardPlan plan;
  plan.shards.resize(shards);
  std::vector<double> known;
  for (const auto& r : runs) {
    auto it = durations.find({r.id, r.mode, r.variant});
    if (it != durations.end()) known.push_back(it->second);
  }
  plan.by_durations = !known.empty();
  if (!plan.by_durations) {
    for (size_t i = 0; i < runs.size(); ++i) plan.shards[i % shards].runs.push_back(runs[i]);
    return plan;
  }
  double mean = std::accumulate(known.begin(), known.end(), 0.0) / static_cast<double>(known.size());
  std::vector<double> estimate(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    auto it = durations.find({runs[i].id, runs[i].mode, runs[i].variant});
    // Build mode runs once whatever --repeat says.
    estimate[i] = (it == durations.end() ? mean : it->second) * (runs[i].mode == "build" ? 1 : repeat);
  }
  std::vector<size_t> order(runs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return estimate[a] > estimate[b]; });
  std::vector<std::vector<size_t>> members(shards);
  for (size_t i : order) {
    size_t least = 0;
    for (size_t s = 1; s < plan.shards.size(); ++s) {
      if (plan.shards[s].estimate_s < plan.shards[least].estimate_s) least = s;
    }
    plan.shards[least].estimate_s += estimate[i];
    members[least].push_back(i);
  }
  for (int s = 0; s < shards; ++s) {
    std::sort(members[s].begin(), members[s].end());
    for (size_t i : members[s]) plan.shards[s].runs.push_back(runs[i]);
  }
  return plan;
}

void check_time_limit(const ShardPlan& plan, int minutes) {
  if (minutes < 1) throw Error("--time-limit must be at least 1 minute, not " + std::to_string(minutes));
  if (!plan.by_durations) return;
  for (size_t s = 0; s < plan.shards.size(); ++s) {
    if (plan.shards[s].estimate_s > minutes * 60.0) {
      char message[256];
      std::snprintf(
          message, sizeof message,
          "shard %zu would take about %.0f s by earlier durations, over --time-limit %d min: use more "
          "--shards or a longer --time-limit",
          s, plan.shards[s].estimate_s, minutes);
      throw Error(message);
    }
  }
}

}  // namespace faultline::reproducers
