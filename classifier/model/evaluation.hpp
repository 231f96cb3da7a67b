// Stratified K-fold cross-validation of the classifier against manual labels, with the baselines
// (majority class, rules alone, fastText alone) measured on the same folds.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "classifier/model/issue_classifier.hpp"
#include "classifier/model/metrics.hpp"

namespace faultline::model {

struct AxisEvaluation {
  AxisMetrics combined;
  AxisMetrics majority;
  AxisMetrics rules;
  AxisMetrics fasttext;
  // What each fold's model labels of its held-out issues by its own label threshold (the rest it would
  // queue for a person), pooled, and the accuracy the thresholds were chosen for.
  LabeledShare own_threshold;
  double label_accuracy = 0;
  double mean_threshold = 0;  // over the folds (a model that labels none counts as 1)
};

// Train on the older issues, test on the newer: how a model does on issues newer than its labels.
struct TimeSplit {
  std::string cut;  // the first creation date of the test part
  int train = 0;
  int test = 0;
  int undated = 0;  // labeled issues without a creation date, in neither part
  AxisEvaluation symptom;
  AxisEvaluation root_cause;
};

struct Evaluation {
  int n = 0;
  int folds = 0;
  AxisEvaluation symptom;
  AxisEvaluation root_cause;
  std::optional<TimeSplit> time_split;
};

// Where a cross-validation stands after a fold: the folds finished so far and the accuracy of the combined
// model over the issues they held out.
struct FoldReport {
  int done = 0;
  int folds = 0;
  int held_out = 0;
  double symptom_accuracy = 0;
  double root_cause_accuracy = 0;
};

// Called from a worker thread (one at a time) after each fold.
using FoldProgress = std::function<void(const FoldReport& report)>;

// Folds are stratified by root cause (the sparser axis). Every fold trains a fresh classifier, with its
// own inner cross-validation, on the other folds only. Up to `jobs` folds run at once; the result does
// not depend on `jobs`.
// Each fold's model chooses its label thresholds by `labels`, as `train` does.
Evaluation evaluate(const std::vector<LabeledIssue>& labeled, int folds, uint64_t seed,
                    const AxisTraining& training, int jobs = 1, const FoldProgress& progress = {},
                    const LabelPolicy& labels = {});

// Where a time split cuts: the `share` quantile of the labeled issues' creation dates (ISO 8601 strings,
// compared as text); the issues created before it train, the rest are tested. Its parts' sizes are filled,
// its figures not. Throws faultline::Error when the training part is too small for `training` or the test
// part is empty, so that eval can refuse before its cross-validation.
TimeSplit plan_time_split(const std::vector<LabeledIssue>& labeled, double share, const AxisTraining& training);
// Trains on the planned split's older part and tests on the rest.
TimeSplit evaluate_time_split(const std::vector<LabeledIssue>& labeled, TimeSplit split,
                              const AxisTraining& training, const LabelPolicy& labels = {});

// The DESIGN.md shape ({"symptom":{accuracy,macro_f1,kappa},"root_cause":{…},"n":N}) plus details and
// baselines.
nlohmann::json evaluation_json(const Evaluation& e);

}  // namespace faultline::model
