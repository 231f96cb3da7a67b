// The regression suite: every reproducer in the chosen modes, recorded in the store as it goes, with
// JUnit XML for CI dashboards.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "reproducers/runner.hpp"

namespace faultline::reproducers {

struct SuiteSummary {
  int64_t run_id = 0;
  std::vector<RunResult> results;
  std::map<std::string, int> counts;  // outcome → number
  bool healthy() const;
};

// Runs and records each result in its own transaction, so a killed suite keeps what it finished.
// `progress` (may be empty) hears about each result as it lands.
SuiteSummary run_suite(datasets::Database& db, const std::vector<Manifest>& manifests,
                       const std::string& mode, const Environment& env,
                       const std::function<void(const RunResult&)>& progress);

std::string junit_xml(const std::vector<RunResult>& results);

// Records the manifests in the store's reproducer catalog and links each manifest's source issues that are
// in the store to its reproducer, in one transaction. Returns the source links added.
int register_manifests(datasets::Database& db, const std::vector<Manifest>& manifests);

}  // namespace faultline::reproducers
