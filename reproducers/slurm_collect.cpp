#include "reproducers/slurm_collect.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "common/error.hpp"
#include "reproducers/slurm_task_results.hpp"

namespace faultline::reproducers {

namespace {

RunResult lost(const PlannedRun& run, int shard, const std::string& why) {
  RunResult r;
  r.id = run.id;
  r.mode = run.mode;
  r.variant = run.variant;
  r.outcome = "lost";
  r.detail = "shard " + std::to_string(shard) + ": " + why;
  return r;
}

// The results of one shard in the shard's order, read from the results file its task wrote; the reason it is
// lost otherwise.
std::vector<RunResult> shard_results(const ShardFile& shard, const std::string& path, std::string& lost_why) {
  TaskResults task;
  try {
    task = read_task_results(path);
  } catch (const Error& e) {
    lost_why = e.what();
    return {};
  }
  if (task.run != shard.run) {
    lost_why = path + " is the results of another run (" + task.run + ", not " + shard.run + ")";
    return {};
  }
  if (task.shard != shard.shard) {
    lost_why = path + " is the results of shard " + std::to_string(task.shard);
    return {};
  }
  std::vector<RunResult> out;
  for (const auto& run : shard.runs) {
    auto it = std::find_if(task.results.begin(), task.results.end(), [&](const RunResult& r) {
      return r.id == run.id && r.mode == run.mode && r.variant == run.variant;
    });
    if (it == task.results.end()) {
      lost_why = path + " has no result for " + run_name(run.id, run.mode, run.variant);
      return {};
    }
    if (it->stability.runs > shard.repeat) {
      lost_why = path + ": " + run_name(run.id, run.mode, run.variant) + " has " +
                 std::to_string(it->stability.runs) + " runs, more than the " + std::to_string(shard.repeat) +
                 " planned";
      return {};
    }
    out.push_back(*it);
  }
  if (task.results.size() != shard.runs.size()) {
    lost_why = path + " has " + std::to_string(task.results.size()) + " results for the shard's " +
               std::to_string(shard.runs.size()) + " runs";
    return {};
  }
  return out;
}

// How a shard file's runs differ from those its plan names for it (in order); empty when they do not.
std::string runs_changed(const ShardFile& shard, const std::vector<std::string>& planned) {
  std::vector<std::string> names;
  for (const auto& r : shard.runs) names.push_back(run_name(r.id, r.mode, r.variant));
  for (const auto& name : planned) {
    if (std::find(names.begin(), names.end(), name) == names.end())
      return "has no " + name + ", which plan.json planned in this shard";
  }
  for (const auto& name : names) {
    if (std::find(planned.begin(), planned.end(), name) == planned.end())
      return "holds " + name + ", which plan.json did not plan in this shard";
  }
  if (names != planned) return "holds the shard's runs in another order or twice";
  return "";
}

}  // namespace

CollectedRun collect_run(const std::string& run_dir) {
  CollectedRun run;
  run.plan = read_run_plan(run_dir);
  std::vector<ShardFile> shards;
  for (int k = 0; k < run.plan.shards; ++k) {
    shards.push_back(read_shard_file(shard_path(run_dir, k)));
    if (shards.back().shard != k)
      throw Error(shard_path(run_dir, k) + ": says it is shard " + std::to_string(shards.back().shard));
    if (shards.back().run != run.plan.run)
      throw Error(shard_path(run_dir, k) + ": is a shard of another run (" + shards.back().run + ", not " +
                  run.plan.run + ")");
    if (const std::string change = runs_changed(shards.back(), run.plan.shard_runs[k]); !change.empty())
      throw Error(shard_path(run_dir, k) + ": " + change +
                  "; the run directory was changed since it was planned");
    // Its task runs each variant as often as the shard file says, and collect holds the results to it: a
    // shard file asking for more runs than the plan would pass results with more runs than planned.
    if (shards.back().repeat != run.plan.repeat)
      throw Error(shard_path(run_dir, k) + ": runs each variant " + std::to_string(shards.back().repeat) +
                  " times, plan.json " + std::to_string(run.plan.repeat) +
                  "; the run directory was changed since it was planned");
  }
  // Shard files past the plan's count would have their runs dropped unseen.
  if (std::filesystem::exists(shard_path(run_dir, run.plan.shards)))
    throw Error(plan_path(run_dir) + ": plans " + std::to_string(run.plan.shards) + " shards, but " +
                shard_path(run_dir, run.plan.shards) +
                " is there too; the run directory was changed since it was planned");
  for (const auto& array : run.plan.arrays) {
    CollectedArray collected{array, {}, {}, 0};
    for (const auto& shard : shards) {
      std::string why;
      std::vector<RunResult> results;
      const std::string path = task_results_path(run_dir, array.name, shard.shard);
      if (std::filesystem::exists(path)) {
        ++collected.results_files;
        results = shard_results(shard, path, why);
      } else {
        why = "its task wrote no " + std::filesystem::path(path).filename().string() +
              " (it died, was cancelled or never ran)";
      }
      if (!why.empty()) {
        collected.lost_shards.push_back(shard.shard);
        for (const auto& r : shard.runs)
          collected.results.push_back({lost(r, shard.shard, why), shard.shard});
        continue;
      }
      for (auto& r : results) collected.results.push_back({std::move(r), shard.shard});
    }
    run.arrays.push_back(std::move(collected));
  }
  return run;
}

std::vector<std::string> drop_unreported_arrays(CollectedRun& run, const std::string& run_dir) {
  std::vector<std::string> dropped;
  std::vector<CollectedArray> kept;
  for (auto& array : run.arrays) {
    if (array.results_files == 0) {
      dropped.push_back(array.array.name);
    } else {
      kept.push_back(std::move(array));
    }
  }
  run.arrays = std::move(kept);
  if (run.arrays.empty())
    throw Error(run_dir +
                ": no task of this run has written its results (results/NAME/task-K.json); nothing " +
                "recorded. Wait for the jobs (squeue), or submit the run's scripts: sbatch " + run_dir +
                "/array-*.sbatch");
  return dropped;
}

std::vector<SuiteSummary> record_collected(datasets::Database& db, const std::string& run_dir,
                                           const CollectedRun& run) {
  std::vector<SuiteSummary> out;
  for (const auto& array : run.arrays) {
    int64_t run_id = 0;
    std::vector<RunResult> results;
    db.transaction([&] {
      run_id = datasets::start_suite_run(db, run.plan.mode, run.plan.repeat, {run_dir, array.array.name});
      for (const auto& c : array.results)
        datasets::record_suite_result(db, run_id, stored_result(c.result, c.shard));
    });
    for (const auto& c : array.results) results.push_back(c.result);
    out.push_back(summarize(run_id, run.plan.mode, run.plan.modes, std::move(results)));
  }
  return out;
}

std::vector<std::string> shards_without_a_gpu(const CollectedRun& run, const CollectedArray& array) {
  const auto& modes = run.plan.modes;
  if (std::find(modes.begin(), modes.end(), "gpu") == modes.end()) return {};
  std::map<int, std::pair<std::string, int>> skipped;  // shard → node, GPU runs skipped for want of a GPU
  for (const auto& c : array.results) {
    if (c.result.mode != "gpu" || c.result.outcome != "skipped" || c.result.detail != kNoGpuHere) continue;
    auto& [node, runs] = skipped[c.shard];
    node = c.result.node;
    ++runs;
  }
  std::vector<std::string> out;
  for (const auto& [shard, found] : skipped)
    out.push_back("shard " + std::to_string(shard) + " (node " + (found.first.empty() ? "?" : found.first) +
                  ") saw no GPU, though the run asked for one: " + std::to_string(found.second) +
                  " GPU runs skipped");
  return out;
}

std::string array_indexes(const std::vector<int>& shards) {
  std::string out;
  for (int s : shards) {
    if (!out.empty()) out += ',';  // not "," + …: GCC 12 warns (-Wrestrict) at -O3
    out += std::to_string(s);
  }
  return out;
}

}  // namespace faultline::reproducers
