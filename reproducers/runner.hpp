// Runs one variant of one reproducer in one mode, once or repeatedly, and turns what happened into an
// outcome of one vocabulary: reproduced / not-reproduced (buggy), pass / fail (fixed), built (compiled as
// expected, behaviour not checked), modeled (the mechanism checked, the symptom not observable here), or
// skipped with the reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reproducers/environment.hpp"
#include "reproducers/manifest.hpp"

namespace faultline::reproducers {

// Where the build puts the harness of one variant: KIND "host" or "gpu".
std::string harness_path(const Environment& env, const Manifest& m, const std::string& variant,
                         const std::string& kind);

// Every outcome, in the order summaries print them.
const std::vector<std::string>& outcome_vocabulary();

// How repeated runs of a variant agreed with its expectation: all (reproducible), some (flaky), none
// (unreproducible); empty when it was skipped.
struct Stability {
  int runs = 0;         // runs that were not skipped
  int as_expected = 0;  // of those, the ones whose result matched the manifest
  std::string status;
};

// "ID [MODE/VARIANT]": how a run is named in every message and line.
std::string run_name(const std::string& id, const std::string& mode, const std::string& variant);

// Whether a run with `outcome` did what its manifest expects (reproduced, pass, built, modeled).
bool as_expected(const std::string& outcome);

// "reproducible" when every one of `runs` went as expected, "unreproducible" when none did, "flaky"
// between; empty for no runs.
std::string stability_status(int as_expected_runs, int runs);

struct RunResult {
  std::string id;
  std::string mode;
  std::string variant;
  std::string outcome;
  std::string detail;
  double seconds = 0;
  Stability stability;
  // What the result ran with: nvcc's release, the driver, the device's compute capability, or "none".
  std::string cuda_toolkit = "none";
  std::string driver = "none";
  std::string compute_capability = "none";
  std::string node;                 // the host it ran on
  std::string device = "none";      // the GPU's name
  bool skipped_by_harness = false;  // the harness exited 77 itself, after the runner's own checks passed
};

// Why the device at hand cannot run `m`'s GPU mode (no GPU, capability too low, or it has the feature
// whose absence the reproducer needs); nothing when it can.
std::optional<std::string> gpu_skip_reason(const Manifest& m, const Environment& env);
// gpu_skip_reason's word for a machine with no GPU.
inline const char* const kNoGpuHere = "no GPU on this machine";

// Modes `auto` stands for on this machine: build and host, plus gpu when a GPU is present.
std::vector<std::string> resolve_modes(const std::string& mode, const Environment& env);

// The (mode, variant) pairs the manifest defines for `modes`, in order.
std::vector<std::pair<std::string, std::string>> planned_runs(const Manifest& m,
                                                              const std::vector<std::string>& modes);

// One run.
RunResult run_variant(const Manifest& m, const std::string& mode, const std::string& variant,
                      const Environment& env);

// `repeat` runs (build mode once: rebuilding an unchanged tree observes nothing new). A buggy variant
// counts as reproduced when any run showed its symptom, a fixed one passes only when every run behaved;
// `stability` says how many agreed.
RunResult run_repeated(const Manifest& m, const std::string& mode, const std::string& variant,
                       const Environment& env, int repeat);

// True for outcomes that mark the suite unhealthy: fail, not-reproduced and lost (a Slurm shard that never
// reported). Skips are not failures (the
// suite reports separately when a mode ran nothing at all).
bool is_failure(const std::string& outcome);

}  // namespace faultline::reproducers
