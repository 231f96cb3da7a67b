// One issue as `faultline show` presents it: its text, the screening decision and rule, every rater's
// label, the adjudication, the final label with its provenance, the prediction with its probabilities and
// the reproducers it links to (the same links the report makes).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "classifier/annotation/uncertain_queue.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_record.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"
#include "reports/report_data.hpp"

namespace faultline::reports {

struct IssueView {
  datasets::IssueRecord issue;
  std::optional<datasets::ScreeningDecision> screening;
  std::vector<datasets::RaterLabel> rater_labels;
  std::optional<datasets::Adjudication> adjudication;
  std::optional<datasets::FinalLabel> final_label;
  std::optional<datasets::Prediction> prediction;
  // Where the issue stands with the uncertain queue (with a prediction only).
  std::optional<annotation::QueueStanding> queue;
  std::vector<CaseReproducer> reproducers;  // as the report links them (a confident prediction stands in)
  // Links (faultline link) to reproducers the catalog does not hold: shown, never counted.
  std::vector<std::string> unknown_links;
};

// The issue as the store holds it, its reproducers matched against `catalog` (the manifests as they are
// now, as the report and triage match them). Throws faultline::Error naming the key when the issue is not
// in the store.
IssueView load_issue_view(datasets::Database& db, const std::string& repo, int64_t number,
                          const std::vector<datasets::CatalogEntry>& catalog);

nlohmann::json issue_view_json(const IssueView& view);
std::string issue_view_text(const IssueView& view);

}  // namespace faultline::reports
