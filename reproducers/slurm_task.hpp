// What one Slurm array task does: run the runs of its shard file here and say where they ran.
#pragma once

#include <vector>

#include "reproducers/environment.hpp"
#include "reproducers/manifest.hpp"
#include "reproducers/slurm_run_dir.hpp"
#include "reproducers/slurm_task_results.hpp"

namespace faultline::reproducers {

// Runs every run of `shard` (--repeat as the shard says) with this node's environment; the Slurm job and
// task ids come from SLURM_ARRAY_JOB_ID / SLURM_ARRAY_TASK_ID. Throws faultline::Error when the shard names
// a reproducer or a mode the manifests do not have.
TaskResults run_shard(const ShardFile& shard, const std::vector<Manifest>& manifests, const Environment& env);

}  // namespace faultline::reproducers
