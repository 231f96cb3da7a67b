// Runs one variant of one reproducer in one mode and turns what happened into an outcome:
// reproduced / not-reproduced (buggy), pass / fail (fixed), or skipped with the reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reproducers/environment.hpp"
#include "reproducers/manifest.hpp"

namespace faultline::reproducers {

struct RunResult {
  std::string id;
  std::string mode;
  std::string variant;
  std::string outcome;
  std::string detail;
  double seconds = 0;
};

// Why the device at hand cannot run `m`'s GPU mode (no GPU, capability too low, or it has the feature
// whose absence the reproducer needs); nothing when it can.
std::optional<std::string> gpu_skip_reason(const Manifest& m, const Environment& env);

// Modes `auto` stands for on this machine: build and host, plus gpu when a GPU is present.
std::vector<std::string> resolve_modes(const std::string& mode, const Environment& env);

// The (mode, variant) pairs the manifest defines for `modes`, in order.
std::vector<std::pair<std::string, std::string>> planned_runs(const Manifest& m,
                                                              const std::vector<std::string>& modes);

RunResult run_variant(const Manifest& m, const std::string& mode, const std::string& variant,
                      const Environment& env);

// True for outcomes that mean the suite is healthy (skips are neither healthy nor failures).
bool is_failure(const std::string& outcome);

}  // namespace faultline::reproducers
