#include "classifier/annotation/uncertain_queue.hpp"

#include <algorithm>
#include <map>

#include "common/counted.hpp"
#include "common/error.hpp"
#include "common/joined.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"

namespace faultline::annotation {

QueueStanding queue_standing(bool abstains, const LabelingState& state) {
  if (state.has_final_label) return QueueStanding::kManualLabel;
  if (state.human_scope == "out") return QueueStanding::kOutOfScope;
  // A person's "in" stands over screening, as `screen` lets it (a decision changed since the last screen
  // too).
  if (state.human_scope != "in") {
    if (state.screened == Screened::kNotYet) return QueueStanding::kNotScreened;
    if (state.screened == Screened::kExcluded) return QueueStanding::kNotCandidate;
  }
  return abstains ? QueueStanding::kQueued : QueueStanding::kModelLabels;
}

std::string queue_standing_name(QueueStanding standing) {
  switch (standing) {
    case QueueStanding::kManualLabel:
      return "manual_label";
    case QueueStanding::kOutOfScope:
      return "out_of_scope";
    case QueueStanding::kNotScreened:
      return "not_screened";
    case QueueStanding::kNotCandidate:
      return "not_candidate";
    case QueueStanding::kModelLabels:
      return "model_labels";
    case QueueStanding::kQueued:
      return "queued";
  }
  return "";
}

LabelingState labeling_state(const datasets::IssueRecord& issue, bool has_final_label,
                             const std::optional<datasets::ScreeningDecision>& screening) {
  return {has_final_label, issue.scope,
          screening ? screened_as(screening->made_candidate()) : Screened::kNotYet};
}

LabelingStates::LabelingStates(datasets::Database& db) {
  for (const auto& [id, label] : datasets::load_final_labels(db)) final_labels_.insert(id);
  for (const auto& [id, decision] : datasets::load_screening(db))
    screened_.emplace(id, screened_as(decision.made_candidate()));
}

LabelingState LabelingStates::of(const datasets::IssueRecord& issue) const {
  const auto screened = screened_.find(issue.id);
  return {final_labels_.count(issue.id) > 0, issue.scope,
          screened == screened_.end() ? Screened::kNotYet : screened->second};
}

void QueueCounts::add(QueueStanding standing, bool abstains) {
  switch (standing) {
    case QueueStanding::kManualLabel:
      ++manual;
      break;
    case QueueStanding::kOutOfScope:
    case QueueStanding::kNotCandidate:
      if (abstains) ++abstained_excluded;
      break;
    case QueueStanding::kNotScreened:
      if (abstains) ++abstained_unscreened;
      break;
    case QueueStanding::kQueued:
      ++queued;
      break;
    case QueueStanding::kModelLabels:
      break;
  }
}

UncertainQueue uncertain_queue(datasets::Database& db) {
  if (datasets::count_issues(db) == 0)
    throw Error(
        "the store holds no issues, so no uncertain queue: import or mine some, then run "
        "'faultline classify'");
  auto predictions = datasets::load_predictions(db);
  if (predictions.empty())
    throw Error("no predictions in the store, so no uncertain queue: run 'faultline classify' first");
  const LabelingStates states(db);
  std::vector<std::pair<double, int64_t>> queued;  // (margin, id)
  UncertainQueue queue;
  // Headlines only: the queue needs an issue's id and scope, not its text.
  datasets::for_each_issue_headline_batch(db, 4096, [&](std::vector<datasets::IssueRecord>& batch) {
    for (const auto& issue : batch) {
      auto p = predictions.find(issue.id);
      if (p == predictions.end()) {
        // Counted where the queue would take it should the model abstain on it (once screened, for one
        // not screened yet).
        const QueueStanding would_be = queue_standing(true, states.of(issue));
        if (would_be == QueueStanding::kQueued) ++queue.unclassified;
        if (would_be == QueueStanding::kNotScreened) ++queue.unclassified_unscreened;
        continue;
      }
      const QueueStanding standing = queue_standing(p->second.abstain, states.of(issue));
      queue.counts.add(standing, p->second.abstain);
      if (standing == QueueStanding::kQueued) queued.emplace_back(label_margin(p->second), issue.id);
    }
  });
  std::stable_sort(queued.begin(), queued.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [margin, id] : queued) queue.issue_ids.push_back(id);
  return queue;
}

std::string queue_clause(const QueueCounts& counts) {
  const int queued = counts.queued;
  std::string clause =
      queued == 0 ? std::string("no unlabeled issue queued as uncertain")
                  : common::counted(queued, "unlabeled issue") +
                        " queued as uncertain (export them with 'faultline label export --rater NAME --queue "
                        "uncertain --out uncertain.csv')";
  const std::string left_out = left_out_clause(counts);
  return left_out.empty() ? clause : clause + "; " + left_out;
}

std::string left_out_clause(const QueueCounts& counts) {
  std::vector<std::string> clauses;
  if (counts.abstained_excluded == 1)
    clauses.push_back(
        "1 abstention is not queued, on an issue a person put out of scope or screening excluded");
  else if (counts.abstained_excluded > 1)
    clauses.push_back(std::to_string(counts.abstained_excluded) +
                      " abstentions are not queued, on issues a person put out of scope or screening "
                      "excluded");
  if (counts.abstained_unscreened > 0) {
    const bool one = counts.abstained_unscreened == 1;
    clauses.push_back(std::to_string(counts.abstained_unscreened) +
                      (one ? " abstention waits" : " abstentions wait") + " for " +
                      (one ? "its issue" : "their issues") +
                      " to be screened (run 'faultline screen', with the rules it last ran with, to "
                      "queue the candidates among them)");
  }
  return common::joined(clauses, "; ");
}

std::string unclassified_clause(int unclassified) {
  const bool one = unclassified == 1;
  return std::to_string(unclassified) + (one ? " issue has" : " issues have") + " no prediction yet and " +
         (one ? "is" : "are") + " not in it (run 'faultline classify' to weigh " + (one ? "it" : "them") +
         ")";
}

std::string unclassified_unscreened_clause(int unclassified_unscreened) {
  const bool one = unclassified_unscreened == 1;
  return std::to_string(unclassified_unscreened) + (one ? " issue has" : " issues have") +
         " neither a screening decision nor a prediction yet (run 'faultline screen', with the rules it last "
         "ran with, then 'faultline classify', to weigh " +
         (one ? "it" : "them") + ")";
}

double label_margin(const datasets::Prediction& p) {
  return std::min(p.symptom_p - p.symptom_threshold.value_or(1.0),
                  p.root_cause_p - p.root_cause_threshold.value_or(1.0));
}

}  // namespace faultline::annotation
