#include "classifier/evaluation.hpp"

#include <nlohmann/json.hpp>

#include "taxonomy/error.hpp"

namespace faultline::classifier {

namespace {

struct Column {
  std::vector<std::string> gold, combined, majority, rules, fasttext;
  std::vector<double> confidence;

  // One held-out item on this axis: the combined prediction and what each baseline says.
  void add(const std::string& truth, const std::string& predicted, double p, const AxisModel& axis,
           const Distribution& rule_scores, const Tokens& tokens) {
    gold.push_back(truth);
    combined.push_back(predicted);
    confidence.push_back(p);
    majority.push_back(axis.majority());
    rules.push_back(axis.predict_rules(rule_scores));
    fasttext.push_back(best_of(axis.predict_fasttext(tokens)).first);
  }

  AxisEvaluation score() const {
    return {score_axis(gold, combined, confidence), score_axis(gold, majority), score_axis(gold, rules),
            score_axis(gold, fasttext)};
  }
};

}  // namespace

Evaluation evaluate(const std::vector<LabeledIssue>& labeled, int folds, uint64_t seed,
                    const AxisTraining& training) {
  if (folds < 2) throw Error("eval: --folds must be at least 2");
  if (labeled.size() < static_cast<size_t>(folds)) {
    throw Error("eval: " + std::to_string(labeled.size()) + " labeled issues are too few for " +
                std::to_string(folds) + " folds");
  }
  std::vector<std::string> strata;
  for (const auto& l : labeled) strata.push_back(l.root_cause);
  std::vector<int> fold = stratified_folds(strata, folds, seed);

  Column symptom, cause;
  for (int f = 0; f < folds; ++f) {
    std::vector<LabeledIssue> train;
    std::vector<const LabeledIssue*> test;
    for (size_t i = 0; i < labeled.size(); ++i) {
      fold[i] == f ? test.push_back(&labeled[i]) : train.push_back(labeled[i]);
    }
    IssueClassifier model = IssueClassifier::train(train, {}, training);
    for (const auto* item : test) {
      IssueFeatures features = extract_features(model.rules(), item->issue);
      IssuePrediction p = model.predict(features);
      symptom.add(item->symptom, p.symptom, p.symptom_p, model.symptom_model(), features.symptom_rules,
                  features.tokens);
      cause.add(item->root_cause, p.root_cause, p.root_cause_p, model.root_cause_model(),
                features.root_cause_rules, features.tokens);
    }
  }
  return {static_cast<int>(labeled.size()), folds, symptom.score(), cause.score()};
}

nlohmann::json evaluation_json(const Evaluation& e) {
  nlohmann::json j = {{"n", e.n},
                      {"folds", e.folds},
                      {"symptom", metrics_json(e.symptom.combined, true)},
                      {"root_cause", metrics_json(e.root_cause.combined, true)}};
  j["baselines"] = {{"majority",
                     {{"symptom", metrics_json(e.symptom.majority, false)},
                      {"root_cause", metrics_json(e.root_cause.majority, false)}}},
                    {"rules",
                     {{"symptom", metrics_json(e.symptom.rules, false)},
                      {"root_cause", metrics_json(e.root_cause.rules, false)}}},
                    {"fasttext",
                     {{"symptom", metrics_json(e.symptom.fasttext, false)},
                      {"root_cause", metrics_json(e.root_cause.fasttext, false)}}}};
  return j;
}

}  // namespace faultline::classifier
