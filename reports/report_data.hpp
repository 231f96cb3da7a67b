// Everything a report shows, read from the store once: the labeled cases with their provenance,
// the funnel, the last audit, reproducer links and suite results.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "classifier/funnel/funnel.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/suite_store.hpp"

namespace faultline::reports {

// A reproducer a case links to, and why: "source" (a reproducer modeled on this very issue: its manifest
// names the issue, or `faultline link` said so) or "related" (it only shares the case's root cause, and
// its symptom when one does; it was not modeled on the case).
struct CaseReproducer {
  std::string id;
  std::string how;
  bool operator==(const CaseReproducer&) const = default;
};

struct Case {
  std::string issue;  // owner/name#number, as stored
  // In a report, the name of its funnel row (StudyFunnel::rows: a study repository under the study's
  // spelling, whatever the case it is stored in); elsewhere as stored.
  std::string repo;
  int64_t number = 0;
  std::string url;
  std::string title;
  std::string symptom;
  std::string root_cause;
  std::string provenance;   // agreed | adjudicated | predicted
  double confidence = 1.0;  // 1 for manual labels
  std::vector<CaseReproducer> reproducers;
};

struct ReproducerStatus {
  std::string
      title;  // from the report's catalog (ReportOptions::catalog); empty for results of unknown reproducers
  std::string root_cause;
  std::string buggy;       // latest outcome of the buggy variant (one that ran over a skip; gpu, host, build)
  std::string fixed;       // the same of the fixed variant, but a failure in any mode stands over a pass
  std::string buggy_mode;  // the mode of the result each outcome is from: the two may differ
  std::string fixed_mode;
};

// Screened-in candidates without a manual label that carry no predicted case, by why (with
// --with-predictions only): the predicted tables count the rest.
struct CandidatesNotPredicted {
  int abstained = 0;               // the model is unsure of an axis
  int predicted_out_of_scope = 0;  // the model's scope says out
  int unclassified = 0;            // no prediction: stored or changed since the last classify
  int total() const { return abstained + predicted_out_of_scope + unclassified; }
};
// One sentence on them for the report's notes; empty when there are none.
std::string candidates_not_predicted_note(const CandidatesNotPredicted& n);

// The name of the statistic an audit of so many raters gates on.
inline std::string audit_statistic(int raters) { return raters > 2 ? "Fleiss' kappa" : "Cohen's kappa"; }

struct ReportData {
  // Final manual labels of the funnel's final column (sampled candidates): what the study's tables, charts
  // and findings count, so Table II totals Table I's Final.
  std::vector<Case> cases;
  std::vector<Case> predicted_cases;     // with --with-predictions only; shown in tables of their own
  CandidatesNotPredicted not_predicted;  // with --with-predictions only
  funnel::StudyFunnel funnel;
  // The audit that made the final labels: its gate's kappa (Cohen's for two raters, Fleiss' for more),
  // over how many issues every rater labeled, by how many raters.
  std::optional<double> audit_kappa;
  std::optional<int> audit_n;
  int audit_raters = 0;
  std::map<std::string, ReproducerStatus> reproducers;
  // Links (faultline link) of counted cases to reproducers the catalog does not hold: not counted.
  int links_to_unknown_reproducers = 0;
  // The latest gpu-mode result per reproducer, variant and compute capability (several GPU architectures
  // come from Slurm arrays with one --constraint each).
  std::vector<datasets::SuiteResult> gpu_results_by_architecture;
  std::string issue_link_host = "https://github.com/";  // only issue URLs under it become links
  // What `faultline eval --json` wrote, when the report was given it; and the file it came from.
  std::optional<nlohmann::json> evaluation;
  std::string evaluation_origin;
};

// The reproducers of a case: those modeled on it — the `manual_links` (from `faultline link`) the catalog
// holds, and every catalog entry whose source issues include the case's URL — when it has any, else the
// catalog's related reproducer of its root cause (the first, by id, of those with its symptom; failing
// that, the first of the root cause). Only the store's contents decide, not the order in which they got
// there.
std::vector<CaseReproducer> case_reproducers(const Case& c, const std::vector<std::string>& manual_links,
                                             const std::vector<datasets::CatalogEntry>& catalog);

// The `links` (from `faultline link`) to reproducers `catalog` does not hold: shown apart, never counted.
std::vector<std::string> links_to_unknown_reproducers(const std::vector<std::string>& links,
                                                      const std::vector<datasets::CatalogEntry>& catalog);

// True when `url` is a link to issue `repo`#`number` (common::read_issue_link, on any host), the repository
// compared without regard to case, as GitHub does.
bool names_issue(const std::string& url, const std::string& repo, int64_t number);

struct ReportOptions {
  // Add confident predictions for screened-in candidates without a manual label (never for issues screening
  // excluded, open ones included); by default the report counts final manual labels only.
  bool include_predictions = false;
  std::string sample_name;  // the sample the study follows; empty: as datasets::resolve_sample chooses
  // The reproducer catalog to match cases against: the manifests as they are now
  // (reproducers::current_catalog), as show and triage match issues.
  std::vector<datasets::CatalogEntry> catalog;
  std::string issue_link_host = "https://github.com/";
  std::string evaluation_path;  // eval --json output to add the classifier's tables from; none when empty
};

// The web host whose issue pages a report may link to, for the GitHub API the issues were mined from:
// "https://github.com/" for api.github.com (or an empty URL), "https://HOST/" for GitHub Enterprise's
// "https://HOST/api/v3".
std::string issue_link_host(const std::string& api_url);

ReportData load_report_data(datasets::Database& db, const ReportOptions& options);

// Repositories in the study's order (FlashInfer … bitsandbytes), then any others alphabetically.
std::vector<std::string> repository_order(const std::vector<Case>& cases);

// Root causes with a reproducer whose buggy variant's latest result is `reproduced`: what the suite has
// shown, not what a manifest names (every root cause is named by one).
std::set<std::string> reproduced_root_causes(const ReportData& data);
// Cases with a reproducer modeled on them (not only one sharing their root cause).
int cases_with_source_reproducer(const std::vector<Case>& cases);
// The study's short name for a repository ("NVIDIA/cutlass" → "CUTLASS"), else the repository itself.
std::string repository_name(const std::string& repo);

}  // namespace faultline::reports
