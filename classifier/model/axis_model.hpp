// One axis of the classifier (scope, symptom or root cause): a fastText model and the rule scores,
// combined log-linearly and calibrated by a temperature, all chosen by cross-validation.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "classifier/model/fasttext_model.hpp"

namespace faultline::model {

using Distribution = std::map<std::string, double>;

struct AxisExample {
  std::string document;  // normalised text
  Distribution rule_scores;
  std::string label;
};

struct AxisTraining {
  std::vector<FastTextParams> grid;  // candidate fastText settings
  std::vector<double> rule_weights{0.0, 0.25, 0.5, 1.0, 2.0, 3.0};
  std::vector<double> temperatures{0.5, 0.7, 0.85, 1.0, 1.25, 1.5, 2.0, 3.0};
  int folds = 3;
  uint64_t seed = 7;
  static AxisTraining standard();
};

class AxisModel {
 public:
  static AxisModel train(const std::string& axis, const std::vector<AxisExample>& examples,
                         const AxisTraining& training);

  // Calibrated combination of fastText and rules.
  Distribution predict(const Tokens& tokens, const Distribution& rule_scores) const;
  // The parts alone, for baselines: fastText's distribution, and the rules' best category (majority if none
  // fired).
  Distribution predict_fasttext(const Tokens& tokens) const { return fasttext_.predict(tokens); }
  std::string predict_rules(const Distribution& rule_scores) const;
  const std::string& majority() const { return majority_; }

  void save(const std::string& directory) const;
  static AxisModel load(const std::string& directory, const std::string& axis);
  nlohmann::json describe() const;

 private:
  std::string axis_;
  FastTextModel fasttext_;
  FastTextParams params_;
  double rule_weight_ = 0;
  double temperature_ = 1;
  std::string majority_;
};

// Combination rule shared by training and prediction: softmax((log p_ft(c) + w·rules(c)) / T).
Distribution combine(const Distribution& fasttext, const Distribution& rule_scores, double rule_weight,
                     double temperature);

// Fold of each example, stratified by label: within each label, a seeded shuffle dealt round-robin.
std::vector<int> stratified_folds(const std::vector<std::string>& labels, int folds, uint64_t seed);

}  // namespace faultline::model
