#include "classifier/model/evaluation.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/error.hpp"
#include "common/largest_entry.hpp"

namespace faultline::model {

namespace {

// What one held-out item says on one axis: the truth, the combined prediction and each baseline's.
struct HeldOut {
  std::string truth, combined, majority, rules, fasttext;
  double confidence = 0;
};

HeldOut held_out(const std::string& truth, const std::string& predicted, double p, const AxisModel& axis,
                 const Distribution& rule_scores, const Tokens& tokens) {
  return {truth,
          predicted,
          axis.majority(),
          axis.predict_rules(rule_scores),
          common::largest_entry(axis.predict_fasttext(tokens)).first,
          p};
}

struct Column {
  std::vector<std::string> gold, combined, majority, rules, fasttext;
  std::vector<double> confidence;

  void add(const HeldOut& h) {
    gold.push_back(h.truth);
    combined.push_back(h.combined);
    confidence.push_back(h.confidence);
    majority.push_back(h.majority);
    rules.push_back(h.rules);
    fasttext.push_back(h.fasttext);
  }

  AxisEvaluation score() const {
    return {score_axis(gold, combined, confidence), score_axis(gold, majority), score_axis(gold, rules),
            score_axis(gold, fasttext)};
  }
};

struct FoldResult {
  std::vector<HeldOut> symptom, root_cause;
};

// Trains on every fold but `f` and predicts fold `f`, in the order of `labeled`.
FoldResult run_fold(const std::vector<LabeledIssue>& labeled, const std::vector<int>& fold, int f,
                    const AxisTraining& training) {
  std::vector<LabeledIssue> train;
  std::vector<const LabeledIssue*> test;
  for (size_t i = 0; i < labeled.size(); ++i) {
    fold[i] == f ? test.push_back(&labeled[i]) : train.push_back(labeled[i]);
  }
  IssueClassifier model = IssueClassifier::train(train, {}, training);
  FoldResult r;
  for (const auto* item : test) {
    IssueFeatures features = extract_features(model.rules(), item->issue);
    IssuePrediction p = model.predict(features);
    r.symptom.push_back(held_out(item->symptom, p.symptom, p.symptom_p, model.symptom_model(),
                                 features.symptom_rules, features.tokens));
    r.root_cause.push_back(held_out(item->root_cause, p.root_cause, p.root_cause_p, model.root_cause_model(),
                                    features.root_cause_rules, features.tokens));
  }
  return r;
}

}  // namespace

Evaluation evaluate(const std::vector<LabeledIssue>& labeled, int folds, uint64_t seed,
                    const AxisTraining& training, int jobs, const FoldProgress& progress) {
  if (folds < 2) throw Error("eval: --folds must be at least 2");
  if (labeled.size() < static_cast<size_t>(folds)) {
    throw Error("eval: " + std::to_string(labeled.size()) + " labeled issues are too few for " +
                std::to_string(folds) + " folds");
  }
  std::vector<std::string> strata;
  for (const auto& l : labeled) strata.push_back(l.root_cause);
  std::vector<int> fold = stratified_folds(strata, folds, seed);

  // Folds are independent and each trains single-threaded with its own seed, so running them on
  // several threads changes only the wall time; results are merged in fold order.
  std::vector<FoldResult> results(folds);
  std::vector<std::exception_ptr> errors(folds);
  std::atomic<int> next{0};
  int done = 0;
  std::mutex progress_mutex;
  auto worker = [&] {
    for (int f = next++; f < folds; f = next++) {
      try {
        results[f] = run_fold(labeled, fold, f, training);
      } catch (...) {
        errors[f] = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(progress_mutex);
      ++done;
      if (progress) progress(done, folds);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::clamp(jobs, 1, folds); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  Column symptom, cause;
  for (const auto& r : results) {
    for (const auto& h : r.symptom) symptom.add(h);
    for (const auto& h : r.root_cause) cause.add(h);
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

}  // namespace faultline::model
