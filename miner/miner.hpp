// Mining: every issue and comment of a repository into the store, page by page, resumable, and cheap to
// refresh (only what changed since the high-water mark, conditional requests everywhere).
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "miner/github_api.hpp"

namespace faultline::miner {

// The seven repositories of the study, as taxonomy/taxonomy.json lists them.
const std::vector<std::string>& study_repositories();

struct MineOptions {
  std::vector<std::string> repositories;  // owner/name
  std::string since;                      // ISO 8601, only for a repository's first mine
  bool timeline = false;                  // also fetch timelines of the issues in `sample`
  std::string sample = "main";
  ApiOptions api;
};

struct MineSummary {
  RequestStats stats;
  long issues = 0;  // issue objects written (new or changed)
  long pull_requests_skipped = 0;
  long comments = 0;
  long timeline_events = 0;
  bool stopped_early = false;                                // --max-requests reached; rerun to continue
  std::vector<std::pair<std::string, std::string>> renamed;  // old → new
};

// `progress` hears one status line at a time (repository, listing, pages, counts, rate limit left).
MineSummary mine(datasets::Database& db, const MineOptions& options,
                 const std::function<void(const std::string&)>& progress);

// The DESIGN.md summary object.
nlohmann::json mine_summary_json(const MineSummary& s);

}  // namespace faultline::miner
