// The regression suite: every reproducer in the chosen modes, recorded in the store as it goes, with
// JUnit XML for CI dashboards.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "datasets/store/suite_store.hpp"
#include "reproducers/runner.hpp"

namespace faultline::reproducers {

// Why a set of results is unhealthy: each failing result; each gpu result the harness itself skipped
// although gpu_skip_reason expected the device to run it; gpu mode when every one of its results was
// skipped (nothing ran on a device, so nothing was checked), or when `requested_mode` is gpu and nothing
// had a gpu mode. Empty when healthy.
std::vector<std::string> run_problems(const std::string& requested_mode,
                                      const std::vector<RunResult>& results);

struct SuiteSummary {
  int64_t run_id = 0;
  std::string mode;                // the mode asked for (auto, build, host, gpu)
  std::vector<std::string> modes;  // the modes the suite ran, in order
  std::vector<RunResult> results;
  std::map<std::string, std::map<std::string, int>> counts;  // mode → outcome → number
  std::vector<std::string> problems() const;                 // run_problems of this run
  bool healthy() const { return problems().empty(); }
  // "build: 4 reproduced, 36 built; host: 18 reproduced, 18 pass", each outcome apart, zero counts left out.
  std::string counts_line() const;
};

struct SuiteOptions {
  std::string mode = "auto";
  int repeat = 1;  // runs per variant (build mode runs once)
};

// Runs and records each result in its own transaction, so a killed suite keeps what it finished.
// `progress` (may be empty) hears about each result as it lands.
SuiteSummary run_suite(datasets::Database& db, const std::vector<Manifest>& manifests,
                       const SuiteOptions& options, const Environment& env,
                       const std::function<void(const RunResult&)>& progress);

// The store's record of a result; `shard` is the Slurm shard it ran in, if any.
datasets::SuiteResult stored_result(const RunResult& r, std::optional<int64_t> shard = std::nullopt);

// A summary of results that were already recorded (a collected Slurm run): counts per mode in `modes` order.
SuiteSummary summarize(int64_t run_id, const std::string& mode, const std::vector<std::string>& modes,
                       std::vector<RunResult> results);

// JUnit XML: one <testsuite> per suite, so that a collected Slurm run's arrays (one per GPU architecture)
// keep their test cases apart.
struct JunitSuite {
  std::string name;  // faultline-reproducers, and .ARRAY for a Slurm array's (junit_suite)
  std::vector<RunResult> results;
};
JunitSuite junit_suite(std::vector<RunResult> results, const std::string& slurm_array = "");
std::string junit_xml(const std::vector<JunitSuite>& suites);

// Records the manifests in the store's reproducer catalog, with their source issues, in one transaction.
// Which labeled cases they were modeled on is worked out from the catalog when a report is made, so it
// does not depend on whether issues were imported before or after this ran.
// What the store's catalog records of each manifest.
std::vector<datasets::CatalogEntry> catalog_of(const std::vector<Manifest>& manifests);
// The catalog of the manifests as they are now, in the default folder (default_manifest_dir): what the
// report, show and triage match issues against, so that which cases a reproducer was modeled on never depends
// on whether `suite` or `repro list` ran before, or on which folder they read. Read, not registered, so a
// read-only store can be reported.
std::vector<datasets::CatalogEntry> current_catalog();
void register_manifests(datasets::Database& db, const std::vector<Manifest>& manifests);

}  // namespace faultline::reproducers
