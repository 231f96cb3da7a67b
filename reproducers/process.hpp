// Runs a child process with a time limit and collects its combined output.
#pragma once

#include <string>
#include <vector>

namespace faultline::reproducers {

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal or by the timeout
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved
  double seconds = 0;
};

// argv[0] is looked up on PATH. The child runs in its own process group, killed whole on timeout.
ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s);

}  // namespace faultline::reproducers
