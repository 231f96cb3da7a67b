// Mining: every issue and comment of a repository into the store, page by page, resumable, and cheap to
// refresh (only what changed since the high-water mark, conditional requests everywhere). Listings are
// paged by an updated_at cursor, so an edit during a listing cannot hide an item; a rename noticed on any
// request keeps one repository; --verify accounts for every issue number.
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "datasets/store/outdated_results.hpp"
#include "miner/github_api.hpp"

namespace faultline::miner {

// The seven repositories of the study, as taxonomy/taxonomy.json lists them.
const std::vector<std::string>& study_repositories();

struct MineOptions {
  std::vector<std::string> repositories;  // owner/name
  std::string since;                      // ISO 8601, only for a repository's first mine
  // A refresh asks from this many seconds before the high-water mark: an entry GitHub makes visible a
  // little after its updated_at (a write that commits late) is still read; what comes back unchanged is
  // skipped.
  int64_t overlap_seconds = 600;
  bool timeline = false;  // also fetch timelines of the issues in `sample`
  std::string sample = "main";
  bool verify = false;  // after mining, account for every number up to the repository's highest
  ApiOptions api;
};

// What --verify found for one repository: every number 1..highest_number is a stored issue, a pull request,
// or listed in `missing` with the reason.
struct VerifyReport {
  std::string repo;
  int64_t highest_number = 0;
  int64_t issues = 0;         // stored issues, after the check
  int64_t pull_requests = 0;  // numbers known to be pull requests
  long fetched = 0;           // numbers fetched one by one
  long recovered = 0;         // of those, issues now stored that the listings had not delivered
  std::vector<std::pair<int64_t, std::string>> missing;  // number → why (deleted, transferred, 404/410)
};

struct MineSummary {
  RequestStats stats;
  long issues = 0;  // issue objects written (new or changed)
  long pull_requests_skipped = 0;
  long comments = 0;
  long timeline_events = 0;
  // Sampled issues whose timeline could not be fetched (deleted since, a malformed answer): "OWNER/NAME#N",
  // with why. Their stored events are kept.
  std::vector<std::pair<std::string, std::string>> timelines_unavailable;
  datasets::ResultCounts outdated;  // screening decisions and predictions dropped as their issues changed
  bool stopped_early = false;       // --max-requests reached or a wait over --max-wait; rerun to continue
  std::string stop_reason;          // why it stopped early, and when to run again
  // Repositories that stopped with an error (what they stored before it is kept; the others were mined):
  // the name as asked, and the error.
  std::vector<std::pair<std::string, std::string>> failed;
  std::vector<std::pair<std::string, std::string>> renamed;  // old → new
  std::vector<VerifyReport> verified;                        // --verify only
};

// `progress` hears one status line at a time (repository, listing, pages, counts, rate limit left).
MineSummary mine(datasets::Database& db, const MineOptions& options,
                 const std::function<void(const std::string&)>& progress);

// The DESIGN.md summary object.
nlohmann::json mine_summary_json(const MineSummary& s);

}  // namespace faultline::miner
