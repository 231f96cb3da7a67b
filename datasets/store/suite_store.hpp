// SQL for the reproducer catalog, manual case ↔ reproducer links and regression-suite results.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

// A link someone made with `faultline link` (a reproducer modeled on that issue).
void link_reproducer(Database& db, int64_t issue_id, const std::string& repro_id);
// issue id → reproducer ids
std::map<int64_t, std::vector<std::string>> load_reproducer_links(Database& db);
// The reproducer ids linked to one issue.
std::vector<std::string> load_reproducer_links(Database& db, int64_t issue_id);

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

// A run of `suite`; one collected from a Slurm run directory names it and the array (GPU architecture) it
// was.
struct SlurmOrigin {
  std::string run_dir;
  std::string array;
};
int64_t start_suite_run(Database& db, const std::string& mode, int repeat, const SlurmOrigin& origin = {});

struct SuiteResult {
  std::string repro_id;
  std::string variant;  // buggy | fixed
  std::string mode;     // build | host | gpu
  std::string outcome;  // reproduced | pass | built | modeled | not-reproduced | fail | skipped
  std::string detail;
  double seconds = 0;
  int runs = 0;              // runs that were not skipped (suite --repeat)
  int runs_as_expected = 0;  // of those, the ones that matched the manifest
  std::string stability;     // reproducible | flaky | unreproducible; empty when skipped
  std::string cuda_toolkit = "none";
  std::string driver = "none";
  std::string compute_capability = "none";
  std::string node;              // the host it ran on
  std::string device = "none";   // the GPU's name
  std::optional<int64_t> shard;  // the Slurm shard it ran in; none for a local suite
  bool operator==(const SuiteResult&) const = default;
};
void record_suite_result(Database& db, int64_t run_id, const SuiteResult& result);
// The most recent result of every (reproducer, variant, mode), ordered by reproducer, mode, variant.
std::vector<SuiteResult> latest_suite_results(Database& db);

// The most recent gpu-mode result of every (reproducer, variant, compute capability) that ran on a GPU,
// ordered by reproducer, compute capability, variant: what each GPU architecture last showed.
std::vector<SuiteResult> latest_gpu_results_by_architecture(Database& db);

// A job array submitted with `suite --slurm --submit` (or its --rerun-lost), for the record.
struct SlurmJob {
  std::string run_dir;
  std::string array;
  std::string job_id;
  std::string array_indexes;  // as passed to sbatch --array ("0-4%2", "1,3")
  bool operator==(const SlurmJob&) const = default;
};
void record_slurm_job(Database& db, const SlurmJob& job);
std::vector<SlurmJob> load_slurm_jobs(Database& db, const std::string& run_dir);  // in submission order

}  // namespace faultline::datasets
