// The Slurm commands faultline calls: sbatch to submit an array, squeue to follow it, scontrol to ask
// about partitions. Each runs with a time limit; a failure is a faultline::Error with the tool's words.
#pragma once

#include <optional>
#include <string>

namespace faultline::reproducers {

// `sbatch --parsable [--array=ARRAY] SCRIPT`; returns the job id. A non-empty `array` replaces the script's
// own --array (to resubmit only some shards).
std::string submit_array(const std::string& script, const std::string& array = "");

struct ArrayProgress {
  int pending = 0;
  int running = 0;
  int done = 0;  // no longer queued or running: finished, failed, cancelled or out of time
  bool operator==(const ArrayProgress&) const = default;
};

// squeue's view of job `job_id`'s `tasks` tasks: each one it lists as pending or running counts so, every
// other one (listed in an end state, or no longer listed) as done.
ArrayProgress array_progress(const std::string& job_id, int tasks);

// What the state words of `squeue -h -r -o %T` (one per line) mean for an array of `tasks` tasks.
ArrayProgress progress_from_states(const std::string& squeue_output, int tasks);

// True when `tool` is an executable on PATH.
bool on_path(const std::string& tool);

// `scontrol show partition [NAME]`: nothing when `partition` exists (or, when empty, when the cluster has
// a default partition); otherwise why not.
std::optional<std::string> partition_problem(const std::string& partition);

}  // namespace faultline::reproducers
