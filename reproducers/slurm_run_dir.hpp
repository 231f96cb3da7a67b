// The run directory of a suite sent to Slurm, on a file system the nodes share:
//   plan.json                       what was planned (modes, repeat, shards, arrays, where faultline is)
//   shard-K.json                    the runs of shard K (the same shards for every array)
//   array-NAME.sbatch               one job array per GPU architecture (--constraint), NAME "default" without
//   results/NAME/task-K.json        written by array NAME's task K when its shard finished
//   logs/NAME-JOB_TASK.out          the tasks' stdout and stderr
#pragma once

#include <string>
#include <vector>

#include "reproducers/slurm_shard_plan.hpp"

namespace faultline::reproducers {

struct SlurmArray {
  std::string name;        // "default", or the constraint made safe for a file name
  std::string constraint;  // empty: any node of the partition
};

struct RunPlan {
  // Drawn when the run is planned and carried by its shard files and its tasks' results files, so that a
  // results file of another run is told apart.
  std::string run;
  std::string mode;                // as asked (auto, build, host, gpu)
  std::vector<std::string> modes;  // what it stands for on the cluster
  int repeat = 1;
  int shards = 0;
  int max_parallel = 0;  // the scripts' %K (--max-parallel), which a resubmission's --array keeps
  std::vector<SlurmArray> arrays;
  // The names of each shard's runs (run_name), by shard: collect holds the shard files to them, so that a
  // run taken out of a shard file (and its results) is seen, not silently never counted.
  std::vector<std::vector<std::string>> shard_runs;
};

// The array name for a constraint: letters, digits, '.', '-' and '_' kept, anything else '_', and a leading
// '.' made '_' too (so never "." or "..").
std::string array_name(const std::string& constraint);

std::string plan_path(const std::string& run_dir);
std::string shard_path(const std::string& run_dir, int shard);
std::string script_path(const std::string& run_dir, const std::string& array);
std::string results_dir(const std::string& run_dir, const std::string& array);
std::string task_results_path(const std::string& run_dir, const std::string& array, int shard);
std::string logs_dir(const std::string& run_dir);

void write_run_plan(const std::string& run_dir, const RunPlan& plan);
// Throws faultline::Error naming plan.json when it is missing or malformed (a shard_runs list per shard,
// no run in two of them).
RunPlan read_run_plan(const std::string& run_dir);

// 16 hexadecimal digits from the system's random source: a run's token.
std::string new_run_token();

// A shard file: {"format": "faultline-shard/2", "run": RUN, "shard": K, "repeat": N, "runs": [{"id",
// "mode", "variant"}]}.
struct ShardFile {
  std::string run;  // the plan's
  int shard = 0;
  int repeat = 1;
  std::vector<PlannedRun> runs;
};
void write_shard_file(const std::string& path, const ShardFile& shard);
// Throws faultline::Error naming `path` and the field when it is not such a file.
ShardFile read_shard_file(const std::string& path);

}  // namespace faultline::reproducers
