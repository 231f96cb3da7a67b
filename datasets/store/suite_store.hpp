// SQL for the reproducer catalog, manual case ↔ reproducer links and regression-suite results.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

// A link someone made with `faultline link` (a reproducer modeled on that issue).
void link_reproducer(Database& db, int64_t issue_id, const std::string& repro_id);
// issue id → reproducer ids
std::map<int64_t, std::vector<std::string>> load_reproducer_links(Database& db);

// What the store knows of a reproducer: its manifest's id, title, the failure class it models and the
// issues it was modeled on.
struct CatalogEntry {
  std::string id;
  std::string title;
  std::string symptom;
  std::string root_cause;
  std::vector<std::string> source_issues;  // URLs
  bool operator==(const CatalogEntry&) const = default;
};
// Replaces the catalog with `entries` (the manifests as they are now).
void replace_reproducer_catalog(Database& db, const std::vector<CatalogEntry>& entries);
std::vector<CatalogEntry> load_reproducer_catalog(Database& db);  // ordered by id

int64_t start_suite_run(Database& db, const std::string& mode, int repeat);

struct SuiteResult {
  std::string repro_id;
  std::string variant;  // buggy | fixed
  std::string mode;     // build | host | gpu
  std::string outcome;  // reproduced | pass | built | modeled | not-reproduced | fail | skipped
  std::string detail;
  double seconds = 0;
  int runs = 0;             // runs that were not skipped (suite --repeat)
  int runs_as_expected = 0; // of those, the ones that matched the manifest
  std::string stability;    // reproducible | flaky | unreproducible; empty when skipped
  std::string cuda_toolkit = "none";
  std::string driver = "none";
  std::string compute_capability = "none";
  bool operator==(const SuiteResult&) const = default;
};
void record_suite_result(Database& db, int64_t run_id, const SuiteResult& result);
// The most recent result of every (reproducer, variant, mode), ordered by reproducer, mode, variant.
std::vector<SuiteResult> latest_suite_results(Database& db);

}  // namespace faultline::datasets
