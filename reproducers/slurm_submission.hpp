// Preparing a suite for Slurm: the runs planned into shards, and the run directory written with the
// shard files, plan.json and one sbatch script per job array; and, for a collected run, which shards of
// which arrays to submit again.
#pragma once

#include <string>
#include <vector>

#include "reproducers/manifest.hpp"
#include "reproducers/slurm_run_dir.hpp"
#include "reproducers/slurm_shard_plan.hpp"

namespace faultline::reproducers {

struct SlurmSuiteOptions {
  std::string run_dir;
  std::string mode = "auto";
  int repeat = 1;
  int shards = 4;
  int max_parallel = 0;
  int time_limit_min = 60;
  std::string partition;
  std::string gres;                      // "gpu:1" for the GPU mode
  std::vector<std::string> constraints;  // one job array each; none: one array on any node
  std::string faultline;                 // the executable each task runs (absolute)
  std::string build_dir;                 // the harnesses the tasks run (absolute)
  std::string manifest_dir;
};

// What `auto` stands for on the cluster, where this machine's GPU says nothing: build and host, plus gpu
// when `gres` asks for a GPU.
std::vector<std::string> cluster_modes(const std::string& mode, const std::string& gres);

struct PreparedRun {
  RunPlan plan;
  ShardPlan shards;
  std::vector<std::string> scripts;  // one per array, in plan order
};

// Plans and writes the run directory (created; refused when it already holds a plan). Throws
// faultline::Error when the plan cannot keep a shard under the time limit or the options cannot be
// directives.
PreparedRun prepare_slurm_run(const SlurmSuiteOptions& options, const std::vector<Manifest>& manifests,
                              const Durations& durations);

// A job array to submit again: the lost shards of one array.
struct Resubmission {
  std::string array;
  std::string script;
  std::vector<int> shards;
  int max_parallel = 0;  // the plan's, so that sbatch --array keeps the script's %K
};

// The lost shards of every array of `run_dir`, as `suite collect` would report them; empty when none is.
std::vector<Resubmission> lost_shards_to_resubmit(const std::string& run_dir);

}  // namespace faultline::reproducers
