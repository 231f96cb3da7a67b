// The uncertain queue: the issues a person is asked to label because the classifier would not label them.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_record.hpp"
#include "datasets/store/prediction_store.hpp"

namespace faultline::annotation {

// What screening decided of an issue: the study labels candidates only.
enum class Screened {
  kNotYet,  // no decision: never screened, or stored or changed since the last screen
  kExcluded,
  kCandidate,
};
// What a screening that made (or did not make) an issue a candidate decided of it.
inline Screened screened_as(bool made_candidate) {
  return made_candidate ? Screened::kCandidate : Screened::kExcluded;
}

// What the store says of an issue, besides the model, that decides whether a person is asked to label it.
struct LabelingState {
  bool has_final_label = false;
  std::optional<std::string> human_scope;  // in | out, when a person decided it
  Screened screened = Screened::kNotYet;
};

// Where an issue stands with the queue, in the order the reasons are checked.
enum class QueueStanding {
  kManualLabel,  // a final manual label is in force: nothing to ask
  kOutOfScope,   // a person put it out of scope: it gets no symptom or root cause
  // Unless a person put it in scope (the study labels screening candidates only):
  kNotScreened,   // no screening decision yet: 'faultline screen' decides whether it may be queued
  kNotCandidate,  // screening excluded it (open, a question, no failure named)
  kModelLabels,   // each axis's probability reaches its threshold
  kQueued,        // the classifier abstains: a person is asked
};
QueueStanding queue_standing(bool abstains, const LabelingState& state);
// "manual_label", "out_of_scope", "not_screened", "not_candidate", "model_labels" or "queued", as JSON
// names it.
std::string queue_standing_name(QueueStanding standing);

// One issue's state from what the store holds of it: whether it has a final label, and its screening
// decision (none: not screened); `issue.scope` is taken as the person's decision.
LabelingState labeling_state(const datasets::IssueRecord& issue, bool has_final_label,
                             const std::optional<datasets::ScreeningDecision>& screening);

// The labeling state of the store's issues, read once: final labels and screening decisions.
class LabelingStates {
 public:
  explicit LabelingStates(datasets::Database& db);
  // `issue.id` names the stored issue; `issue.scope` is taken as the person's decision.
  LabelingState of(const datasets::IssueRecord& issue) const;

 private:
  std::set<int64_t> final_labels_;
  std::map<int64_t, Screened> screened_;  // the issues screening decided on
};

// What a queue of predictions comes to: issues with a manual label in force, issues queued, abstentions
// left out because a person or screening excluded their issue, and abstentions left out until their issue
// is screened.
struct QueueCounts {
  int manual = 0;
  int queued = 0;
  int abstained_excluded = 0;
  int abstained_unscreened = 0;
  void add(QueueStanding standing, bool abstains);
};

// The queue of the stored predictions, furthest under a label threshold first (equal margins in the order
// the issues came into the store), and how many abstentions it leaves out because a person or screening
// excluded their issue. Throws faultline::Error when the store holds no issues or no predictions (nothing
// was classified, so no queue can be told).
struct UncertainQueue {
  std::vector<int64_t> issue_ids;
  QueueCounts counts;
  // Issues with no prediction (they came after the last classify) that the queue could hold once
  // classified: no final label, not put out of scope, screening candidates or put in scope by a person.
  int unclassified = 0;
  // Issues with neither a prediction nor a screening decision (they came after the last screen and
  // classify), no final label, no scope decision by a person: the queue could hold them once both ran.
  int unclassified_unscreened = 0;
};
UncertainQueue uncertain_queue(datasets::Database& db);

// What a queue leaves to people, as one clause: "N unlabeled issues queued as uncertain (export them with
// ...)", or "no unlabeled issue queued as uncertain", then the abstentions it leaves out, if any.
std::string queue_clause(const QueueCounts& counts);
// The abstentions a queue leaves out, as clauses joined by "; " (empty when none): "N abstentions are not
// queued, on issues a person put out of scope or screening excluded", "N abstentions wait for their
// issues to be screened (run 'faultline screen' ...)".
std::string left_out_clause(const QueueCounts& counts);
// "N issues have no prediction yet and are not in it (run 'faultline classify' to weigh them)".
std::string unclassified_clause(int unclassified);
// "N issues have neither a screening decision nor a prediction yet (run 'faultline screen' ... then
// 'faultline classify' ...)".
std::string unclassified_unscreened_clause(int unclassified_unscreened);

// How far a prediction's surer-to-fail axis is from its label threshold: the smaller of p − threshold over
// the symptom and the root cause (negative: under it). The queue puts the most negative first. A threshold
// not stored (predictions of older versions) is read as 1, which ranks those by their lower probability.
double label_margin(const datasets::Prediction& p);

}  // namespace faultline::annotation
