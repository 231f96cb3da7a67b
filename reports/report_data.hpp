// Everything a report shows, read from the store once: the labeled cases with their provenance,
// the funnel, the last audit, reproducer links and suite results.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "classifier/funnel.hpp"
#include "datasets/database.hpp"

namespace faultline::reports {

struct Case {
  std::string issue;  // owner/name#number
  std::string repo;
  std::string url;
  std::string title;
  std::string symptom;
  std::string root_cause;
  std::string provenance;   // agreed | adjudicated | predicted
  double confidence = 1.0;  // 1 for manual labels
  std::vector<std::string> reproducers;
};

struct ReproducerStatus {
  std::string buggy;  // latest outcome of the buggy variant (any mode; gpu preferred over host over build)
  std::string fixed;
  std::string mode;
};

struct ReportData {
  std::vector<Case> cases;
  std::vector<classifier::FunnelRow> funnel;
  std::optional<double> audit_kappa;
  std::optional<int> audit_n;
  std::map<std::string, ReproducerStatus> reproducers;
};

struct ReportOptions {
  bool include_predictions = true;  // add confident predictions for in-scope issues without a manual label
  std::string sample_name = "main";
};

ReportData load_report_data(datasets::Database& db, const ReportOptions& options);

// Repositories in the study's order (FlashInfer … bitsandbytes), then any others alphabetically.
std::vector<std::string> repository_order(const std::vector<Case>& cases);
// The study's short name for a repository ("NVIDIA/cutlass" → "CUTLASS"), else the repository itself.
std::string repository_name(const std::string& repo);

}  // namespace faultline::reports
