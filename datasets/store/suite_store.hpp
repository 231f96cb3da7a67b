// SQL for reproducer links and regression-suite results.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

void link_reproducer(Database& db, int64_t issue_id, const std::string& repro_id);
// issue id → reproducer ids
std::map<int64_t, std::vector<std::string>> load_reproducer_links(Database& db);
// The reproducer ids linked to one issue.
std::vector<std::string> load_reproducer_links(Database& db, int64_t issue_id);

// What the store knows of a reproducer: its manifest's id, title and the failure class it models.
struct CatalogEntry {
  std::string id;
  std::string title;
  std::string symptom;
  std::string root_cause;
};
// Replaces the catalog with `entries` (the manifests as they are now).
void replace_reproducer_catalog(Database& db, const std::vector<CatalogEntry>& entries);
std::vector<CatalogEntry> load_reproducer_catalog(Database& db);  // ordered by id

int64_t start_suite_run(Database& db, const std::string& mode);

struct SuiteResult {
  std::string repro_id;
  std::string variant;  // buggy | fixed
  std::string mode;     // build | host | gpu
  std::string outcome;  // reproduced | not-reproduced | pass | fail | skipped
  std::string detail;
  double seconds = 0;
};
void record_suite_result(Database& db, int64_t run_id, const SuiteResult& result);
// The most recent result of every (reproducer, variant, mode).
std::vector<SuiteResult> latest_suite_results(Database& db);

}  // namespace faultline::datasets
