// What `faultline doctor --slurm` checks: the Slurm commands the suite calls, and the partition.
#pragma once

#include <string>
#include <vector>

namespace faultline::reproducers {

struct SlurmCheck {
  std::string what;  // "sbatch", "partition gpu", ...
  bool ok = false;
  std::string detail;  // what was found, or what is missing and what to do
};

// sbatch, squeue and scontrol on PATH, then (when scontrol is there) the partition (or the default one).
std::vector<SlurmCheck> slurm_checks(const std::string& partition);

}  // namespace faultline::reproducers
