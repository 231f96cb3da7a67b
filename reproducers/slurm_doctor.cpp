#include "reproducers/slurm_doctor.hpp"

#include "reproducers/slurm_client.hpp"

namespace faultline::reproducers {

std::vector<SlurmCheck> slurm_checks(const std::string& partition) {
  std::vector<SlurmCheck> out;
  bool scontrol = false;
  for (const char* tool : {"sbatch", "squeue", "scontrol"}) {
    bool found = on_path(tool);
    scontrol = scontrol || (found && std::string(tool) == "scontrol");
    out.push_back({tool, found,
                   found
                       ? "on PATH"
                       : "not on PATH: install the Slurm client (Debian: slurm-client) or load its module"});
  }
  std::string what = partition.empty() ? "default partition" : "partition " + partition;
  if (!scontrol) {
    out.push_back({what, false, "not checked: scontrol is missing"});
  } else if (auto problem = partition_problem(partition)) {
    out.push_back({what, false, *problem});
  } else {
    out.push_back({what, true, "exists"});
  }
  return out;
}

}  // namespace faultline::reproducers
