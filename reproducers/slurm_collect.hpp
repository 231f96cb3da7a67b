// Collecting a Slurm run: every task's results file merged into one suite run per job array (one GPU
// architecture each), and every run of a shard whose task never wrote a complete file reported `lost`
// with its shard — never passed, never left out.
#pragma once

#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "reproducers/slurm_run_dir.hpp"
#include "reproducers/suite.hpp"

namespace faultline::reproducers {

struct CollectedResult {
  RunResult result;
  int shard = 0;
};

struct CollectedArray {
  SlurmArray array;
  std::vector<CollectedResult> results;  // every planned run, shard by shard
  std::vector<int> lost_shards;          // ascending
  int results_files = 0;                 // shards whose task wrote a results file (read or not)
};

struct CollectedRun {
  RunPlan plan;
  std::vector<CollectedArray> arrays;
};

// Reads plan.json, the shard files and the task results of `run_dir`; writes nothing. A task file that is
// missing, unreadable, of another shard, or without a result for one of the shard's runs loses that shard.
CollectedRun collect_run(const std::string& run_dir);

// Takes out of `run` the arrays no task of which has written a results file (not submitted, still queued,
// or all died): recorded, every run of theirs would be lost and become each reproducer's latest result.
// Returns their names; throws faultline::Error, naming the scripts to submit, when no array is left.
std::vector<std::string> drop_unreported_arrays(CollectedRun& run, const std::string& run_dir);

// Records each array as one suite run in the store (its own transaction), tagged with the run directory
// and the array; returns their summaries in the plan's order (drop_unreported_arrays first).
std::vector<SuiteSummary> record_collected(datasets::Database& db, const std::string& run_dir,
                                           const CollectedRun& run);

// The shards of `array` whose task found no GPU although the run asked for GPU runs (gpu among its modes,
// which a plan has only with --gres gpu or --mode gpu): one line each, with the node. Locally such a skip
// means a machine without a GPU; on the cluster, a task that landed where the one it asked for is not
// visible, and its GPU runs checked nothing.
std::vector<std::string> shards_without_a_gpu(const CollectedRun& run, const CollectedArray& array);

// "1,3" for shards 1 and 3: what sbatch --array takes to run just those.
std::string array_indexes(const std::vector<int>& shards);

}  // namespace faultline::reproducers
