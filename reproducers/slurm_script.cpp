#include "reproducers/slurm_script.hpp"

#include "common/error.hpp"

namespace faultline::reproducers {

namespace {

constexpr const char* kTaskPlaceholder = "{task}";

std::string directive(const std::string& name, const std::string& value) {
  if (value.find_first_of("\n\r") != std::string::npos)
    throw Error("--" + name + " cannot hold a line break: '" + value + "'");
  return "#SBATCH --" + name + "=" + value + "\n";
}

}  // namespace

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string sbatch_script(const SbatchSettings& s, const std::vector<std::string>& command) {
  if (s.tasks < 1) throw Error("a job array needs at least one task, not " + std::to_string(s.tasks));
  if (s.max_parallel < 0)
    throw Error("--max-parallel must be 0 or more, not " + std::to_string(s.max_parallel));
  if (s.time_limit_min < 1)
    throw Error("--time-limit must be at least 1 minute, not " + std::to_string(s.time_limit_min));
  std::string array = "0-" + std::to_string(s.tasks - 1);
  if (s.max_parallel > 0) {
    array += '%';  // not "%" + …: GCC 12 warns (-Wrestrict) at -O3
    array += std::to_string(s.max_parallel);
  }
  std::string script =
      "#!/bin/bash\n"
      "# The faultline reproducer suite as a Slurm job array: task K runs shard K. A task writes its "
      "results\n"
      "# file only when its whole shard finished, so `faultline suite collect` reports a task that died as "
      "lost.\n";
  script += directive("job-name", s.job_name);
  script += directive("array", array);
  if (!s.partition.empty()) script += directive("partition", s.partition);
  if (!s.gres.empty()) script += directive("gres", s.gres);
  if (!s.constraint.empty()) script += directive("constraint", s.constraint);
  script += directive("time", std::to_string(s.time_limit_min));
  if (!s.output.empty()) script += directive("output", s.output);
  std::string line = "exec";
  for (const auto& word : command) {
    std::string quoted = shell_quote(word);
    for (size_t at; (at = quoted.find(kTaskPlaceholder)) != std::string::npos;)
      quoted.replace(at, std::string(kTaskPlaceholder).size(), "'\"${SLURM_ARRAY_TASK_ID}\"'");
    line += " " + quoted;
  }
  return script + line + "\n";
}

}  // namespace faultline::reproducers
