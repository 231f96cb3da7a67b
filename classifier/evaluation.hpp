// Stratified K-fold cross-validation of the classifier against manual labels, with the baselines
// (majority class, rules alone, fastText alone) measured on the same folds.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "classifier/issue_classifier.hpp"
#include "classifier/metrics.hpp"

namespace faultline::classifier {

struct AxisEvaluation {
  AxisMetrics combined;
  AxisMetrics majority;
  AxisMetrics rules;
  AxisMetrics fasttext;
};

struct Evaluation {
  int n = 0;
  int folds = 0;
  AxisEvaluation symptom;
  AxisEvaluation root_cause;
};

// Folds are stratified by root cause (the sparser axis). Every fold trains a fresh classifier, with its
// own inner cross-validation, on the other folds only.
Evaluation evaluate(const std::vector<LabeledIssue>& labeled, int folds, uint64_t seed,
                    const AxisTraining& training);

// The DESIGN.md shape ({"symptom":{accuracy,macro_f1,kappa},"root_cause":{…},"n":N}) plus details and
// baselines.
nlohmann::json evaluation_json(const Evaluation& e);

}  // namespace faultline::classifier
