// What one Slurm array task reports: where it ran (node, device, compute capability, driver, toolkit, job)
// and the result of every run of its shard. Written atomically once the shard finished, so a task that
// died leaves no file at all, never a partial one.
#pragma once

#include <string>
#include <vector>

#include "reproducers/runner.hpp"

namespace faultline::reproducers {

struct TaskResults {
  std::string run;  // the token of the run its shard file was planned for
  int shard = 0;
  std::string node;
  std::string device = "none";
  std::string compute_capability = "none";
  std::string driver = "none";
  std::string cuda_toolkit = "none";
  std::string slurm_job_id;   // SLURM_ARRAY_JOB_ID, empty outside Slurm
  std::string slurm_task_id;  // SLURM_ARRAY_TASK_ID
  std::vector<RunResult> results;
};

void write_task_results(const std::string& path, const TaskResults& task);
// Throws faultline::Error naming `path` and what is wrong when it is not a complete task-results file.
TaskResults read_task_results(const std::string& path);

}  // namespace faultline::reproducers
