#include "reproducers/slurm_client.hpp"

#include <sstream>

#include "common/error.hpp"
#include "reproducers/process.hpp"

namespace faultline::reproducers {

namespace {

constexpr int kToolTimeout = 60;

std::string trimmed(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

std::string submit_array(const std::string& script, const std::string& array) {
  std::vector<std::string> argv{"sbatch", "--parsable"};
  if (!array.empty()) argv.push_back("--array=" + array);
  argv.push_back(script);
  auto p = run_process(argv, kToolTimeout);
  std::string out = trimmed(p.output);
  if (p.exit_code != 0) {
    std::string said = out;  // sbatch's lines, as one line of the message
    for (size_t at = said.find('\n'); at != std::string::npos; at = said.find('\n', at))
      said.replace(at, 1, "; ");
    throw Error("sbatch " + script + " failed (exit " + std::to_string(p.exit_code) + "): " + said);
  }
  // --parsable prints "JOBID" or "JOBID;CLUSTER", after any warnings sbatch prints first.
  std::string last = out.substr(out.find_last_of('\n') == std::string::npos ? 0 : out.find_last_of('\n') + 1);
  std::string id = last.substr(0, last.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw Error("sbatch " + script + " printed no job id: '" + out + "'");
  return id;
}

ArrayProgress progress_from_states(const std::string& squeue_output, int tasks) {
  ArrayProgress p;
  std::istringstream lines(squeue_output);
  std::string state;
  while (lines >> state) {
    if (state == "PENDING" || state == "CONFIGURING" || state == "REQUEUED" || state == "REQUEUE_HOLD" ||
        state == "REQUEUE_FED" || state == "RESV_DEL_HOLD")
      ++p.pending;
    else if (state == "RUNNING" || state == "COMPLETING" || state == "SUSPENDED" || state == "STOPPED" ||
             state == "RESIZING" || state == "SIGNALING" || state == "STAGE_OUT")
      ++p.running;
  }
  p.done = std::max(0, tasks - p.pending - p.running);
  return p;
}

ArrayProgress array_progress(const std::string& job_id, int tasks) {
  auto p = run_process({"squeue", "-h", "-r", "-j", job_id, "-o", "%T"}, kToolTimeout);
  if (p.exit_code != 0) {
    // A job that left the controller's memory is no longer known to it: all its tasks are over.
    if (p.output.find("Invalid job id") != std::string::npos) return {0, 0, tasks};
    throw Error("squeue -j " + job_id + " failed (exit " + std::to_string(p.exit_code) +
                "): " + trimmed(p.output));
  }
  return progress_from_states(p.output, tasks);
}

bool on_path(const std::string& tool) {
  return run_process({"sh", "-c", "command -v \"$0\" >/dev/null", tool}, kToolTimeout).exit_code == 0;
}

std::optional<std::string> partition_problem(const std::string& partition) {
  std::vector<std::string> argv{"scontrol", "show", "partition"};
  if (!partition.empty()) argv.push_back(partition);
  auto p = run_process(argv, kToolTimeout);
  std::string out = trimmed(p.output);
  for (char& c : out) c = c == '\n' ? ' ' : c;  // one line, for doctor's table
  if (p.exit_code != 0) {
    // scontrol fails the same way when no controller answers: only its own "not found" says the partition
    // is missing.
    if (!partition.empty() && out.find("Partition " + partition + " not found") != std::string::npos)
      return "partition '" + partition + "' not found: " + out;
    return "scontrol show partition" + (partition.empty() ? "" : " " + partition) + " failed: " + out;
  }
  if (partition.empty() && out.find("Default=YES") == std::string::npos)
    return "the cluster has no default partition: pass --partition";
  return std::nullopt;
}

}  // namespace faultline::reproducers
