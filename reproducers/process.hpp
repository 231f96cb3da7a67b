// Runs a child process with a time limit and collects its combined output, bounded in size.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace faultline::reproducers {

// How much of a child's output is kept: the last megabyte, where harnesses print their verdict.
constexpr size_t kOutputLimit = 1 << 20;

// The longest a child may run (poll's millisecond timeout is an int; an hour is far below its limit).
constexpr int kMaxTimeout = 3600;

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal or by the timeout, or when its status was lost
  bool timed_out = false;
  int signal = 0;            // the signal that ended the child, when one did (not the timeout's kill)
  std::string status_lost;   // why nothing is known of how the child ended, when waitpid failed
  std::string output;        // stdout and stderr interleaved; its last kOutputLimit bytes at most
  size_t bytes_dropped = 0;  // how much output came before what `output` keeps
  double seconds = 0;
};

// argv[0] is looked up on PATH; 1 <= timeout_s <= kMaxTimeout. The child runs in its own process group,
// killed whole when `timeout_s` runs out, whether it is still writing or has closed its output and not
// exited.
ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s,
                          size_t output_limit = kOutputLimit);

}  // namespace faultline::reproducers
