// SQL for classifier predictions. Predictions never touch manual labels: they live in their own table.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

struct Prediction {
  int64_t issue_id = 0;
  std::string model_version;
  std::string scope;
  double scope_p = 0;
  std::string symptom;
  double symptom_p = 0;
  std::string root_cause;
  double root_cause_p = 0;
  bool abstain = false;
  std::string rules_fired = "[]";  // JSON list of rule ids
  // The probability from which each axis labels (an issue under either is abstained on); nullopt: stored
  // before predictions kept their thresholds.
  std::optional<double> symptom_threshold, root_cause_threshold;
};

void replace_predictions(Database& db, const std::vector<Prediction>& predictions);

// replace_predictions one prediction at a time, inside the caller's transaction: clears the table when made,
// then inserts through one prepared statement.
class PredictionWriter {
 public:
  explicit PredictionWriter(Database& db);
  void add(const Prediction& p);

 private:
  Statement insert_;
  std::string now_;
};
std::map<int64_t, Prediction> load_predictions(Database& db);
std::optional<Prediction> find_prediction(Database& db, int64_t issue_id);
// One row per stored prediction, as CSV (with a header) or one JSON object per line; returns how many.
// `has_final_label` says the issue has a final manual label: that label is in force, not the prediction,
// and a model trained since may have learned it (so its prediction there measures nothing).
size_t write_predictions(Database& db, std::ostream& out, const std::string& format);

}  // namespace faultline::datasets
