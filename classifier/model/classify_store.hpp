// The classifier against the store: train from final manual labels, classify every issue.
#pragma once

#include <string>
#include <vector>

#include "classifier/annotation/uncertain_queue.hpp"
#include "classifier/model/issue_classifier.hpp"
#include "datasets/store/database.hpp"

namespace faultline::model {

// Issues with a final (audited) manual label, with that label, but those a person put out of scope: such an
// issue is no case of the study (a screen that follows the scope decisions counts it apart), so no model
// learns from or is scored on it. `out_of_scope` counts the final labels left out.
struct LabeledIssues {
  std::vector<LabeledIssue> cases;
  int out_of_scope = 0;
};
LabeledIssues load_labeled_issues(datasets::Database& db);

// require_two_classes over the cases, and where final labels were left out as out of scope, a refusal says
// how many (the store holds more labels than the message would otherwise suggest).
void require_cases_to_learn(const LabeledIssues& labeled, const std::string& verb);

// Where models live by default: beside the store, in "<db>.models".
std::string default_model_dir(const std::string& db_path);

struct TrainSummary {
  std::string version;
  int labeled = 0;
  int labeled_out_of_scope = 0;  // final labels of issues a person put out of scope, not trained on
  int scoped = 0;
  double seconds = 0;
  // The probability from which each axis labels, and the accuracy it was chosen for (0: fixed by hand).
  double symptom_threshold = 0, symptom_accuracy = 0;
  double root_cause_threshold = 0, root_cause_accuracy = 0;
};
TrainSummary train_from_store(datasets::Database& db, const std::string& model_dir, const LabelPolicy& labels,
                              const AxisProgress& progress = {});

struct ClassifySummary {
  std::string version;
  int classified = 0;
  // Manual labels in force, the uncertain queue, and the abstentions it leaves out: what
  // annotation::uncertain_queue counts of the predictions written.
  annotation::QueueCounts queue;
  double seconds = 0;
};
// Replaces all predictions in one transaction, reading the issues `batch` at a time. Manual labels live in
// their own table and are never touched.
ClassifySummary classify_store(datasets::Database& db, const std::string& model_dir, size_t batch = 2000);

}  // namespace faultline::model
