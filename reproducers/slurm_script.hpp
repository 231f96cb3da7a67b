// The sbatch script of one job array: its #SBATCH directives and the command each task runs.
#pragma once

#include <string>
#include <vector>

namespace faultline::reproducers {

struct SbatchSettings {
  std::string job_name = "faultline-suite";
  int tasks = 1;           // --array=0-(tasks-1)
  int max_parallel = 0;    // the %K of --array; 0: as many at once as Slurm allows
  std::string partition;   // empty: the cluster's default
  std::string gres;        // "gpu:1"; empty: none
  std::string constraint;  // a node feature (a GPU architecture); empty: none
  int time_limit_min = 60;
  std::string output;  // the --output file pattern (%A job, %a task)
};

// `command`'s words are quoted for the shell; "{task}" inside a word becomes the task's
// $SLURM_ARRAY_TASK_ID. Throws faultline::Error for a setting that cannot be a directive (a newline in
// it, tasks or a time limit below 1, a negative max_parallel).
std::string sbatch_script(const SbatchSettings& settings, const std::vector<std::string>& command);

// `word` in single quotes, safe for sh.
std::string shell_quote(const std::string& word);

}  // namespace faultline::reproducers
