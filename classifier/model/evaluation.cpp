#include "classifier/model/evaluation.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <tuple>
#include <utility>

#include "classifier/model/label_threshold.hpp"
#include "common/error.hpp"
#include "common/largest_entry.hpp"
#include "common/parallel_tasks.hpp"

namespace faultline::model {

namespace {

// What one held-out item says on one axis: the truth, the combined prediction and each baseline's.
struct HeldOut {
  std::string truth, combined, majority, rules, fasttext;
  double confidence = 0;
  bool labeled = false;  // the confidence reaches the axis's label threshold
};

HeldOut held_out(const std::string& truth, const std::string& predicted, double p, const AxisModel& axis,
                 const Distribution& rule_scores, const IssueFeatures& features) {
  return {truth,
          predicted,
          axis.majority(),
          axis.predict_rules(rule_scores),
          common::largest_entry(axis.predict_fasttext(features.tokens, features.discussion_again)).first,
          p,
          axis.labels(p)};
}

// The label threshold of one fold's model on one axis, and the accuracy it was chosen for.
struct FoldThreshold {
  double threshold = 0, accuracy = 0;
};

struct Column {
  std::vector<std::string> gold, combined, majority, rules, fasttext;
  std::vector<double> confidence;
  std::vector<bool> labeled;
  std::vector<FoldThreshold> thresholds;

  void add(const HeldOut& h) {
    gold.push_back(h.truth);
    combined.push_back(h.combined);
    confidence.push_back(h.confidence);
    labeled.push_back(h.labeled);
    majority.push_back(h.majority);
    rules.push_back(h.rules);
    fasttext.push_back(h.fasttext);
  }

  AxisEvaluation score() const {
    AxisEvaluation e{score_axis(gold, combined, confidence), score_axis(gold, majority),
                     score_axis(gold, rules), score_axis(gold, fasttext),
                     score_labeled(gold, combined, labeled)};
    for (const auto& t : thresholds)
      e.mean_threshold += (labels_nothing(t.threshold) ? 1.0 : t.threshold) / thresholds.size();
    if (!thresholds.empty()) e.label_accuracy = thresholds.front().accuracy;
    return e;
  }
};

struct FoldResult {
  std::vector<HeldOut> symptom, root_cause;
  FoldThreshold symptom_threshold, root_cause_threshold;
};

// Trains on every fold but `f` and predicts fold `f`, in the order of `labeled`.
FoldResult run_fold(const std::vector<LabeledIssue>& labeled, const std::vector<int>& fold, int f,
                    const AxisTraining& training, const LabelPolicy& labels) {
  std::vector<LabeledIssue> train;
  std::vector<const LabeledIssue*> test;
  for (size_t i = 0; i < labeled.size(); ++i) {
    if (fold[i] < 0) continue;  // in neither part
    fold[i] == f ? test.push_back(&labeled[i]) : train.push_back(labeled[i]);
  }
  IssueClassifier model = IssueClassifier::train(train, {}, training, labels);
  FoldResult r;
  r.symptom_threshold = {model.symptom_model().label_threshold(), model.symptom_model().label_accuracy()};
  r.root_cause_threshold = {model.root_cause_model().label_threshold(),
                            model.root_cause_model().label_accuracy()};
  for (const auto* item : test) {
    IssueFeatures features = extract_features(model.rules(), item->issue);
    IssuePrediction p = model.predict(features);
    r.symptom.push_back(held_out(item->symptom, p.symptom, p.symptom_p, model.symptom_model(),
                                 features.symptom_rules, features));
    r.root_cause.push_back(held_out(item->root_cause, p.root_cause, p.root_cause_p, model.root_cause_model(),
                                    features.root_cause_rules, features));
  }
  return r;
}

// Both axes scored over the held-out items of `results`, in order.
std::pair<AxisEvaluation, AxisEvaluation> score_held_out(const std::vector<FoldResult>& results) {
  Column symptom, cause;
  for (const auto& r : results) {
    for (const auto& h : r.symptom) symptom.add(h);
    for (const auto& h : r.root_cause) cause.add(h);
    symptom.thresholds.push_back(r.symptom_threshold);
    cause.thresholds.push_back(r.root_cause_threshold);
  }
  return {symptom.score(), cause.score()};
}

nlohmann::json baselines_json(const AxisEvaluation& symptom, const AxisEvaluation& root_cause) {
  return {{"majority",
           {{"symptom", metrics_json(symptom.majority, false)},
            {"root_cause", metrics_json(root_cause.majority, false)}}},
          {"rules",
           {{"symptom", metrics_json(symptom.rules, false)},
            {"root_cause", metrics_json(root_cause.rules, false)}}},
          {"fasttext",
           {{"symptom", metrics_json(symptom.fasttext, false)},
            {"root_cause", metrics_json(root_cause.fasttext, false)}}}};
}

// The combined model's figures with what it labels by its own thresholds.
nlohmann::json combined_json(const AxisEvaluation& e) {
  nlohmann::json j = metrics_json(e.combined, true);
  j["own_threshold"] = {{"label_accuracy", e.label_accuracy},
                        {"mean_threshold", e.mean_threshold},
                        {"labeled", e.own_threshold.labeled},
                        {"coverage", e.own_threshold.coverage},
                        {"accuracy", e.own_threshold.accuracy}};
  return j;
}

}  // namespace

Evaluation evaluate(const std::vector<LabeledIssue>& labeled, int folds, uint64_t seed,
                    const AxisTraining& training, int jobs, const FoldProgress& progress,
                    const LabelPolicy& labels) {
  if (folds < 2) throw Error("eval: --folds must be at least 2");
  if (labeled.size() < static_cast<size_t>(folds)) {
    throw Error("eval: " + std::to_string(labeled.size()) + " labeled issues are too few for " +
                std::to_string(folds) + " folds");
  }
  require_two_classes(labeled, "eval");
  std::vector<std::string> strata;
  for (const auto& l : labeled) strata.push_back(l.root_cause);
  std::vector<int> fold = stratified_folds(strata, folds, seed);

  // Folds are independent and each trains single-threaded with its own seed, so running them on
  // several threads changes only the wall time; results are merged in fold order.
  AxisTraining inner = training;
  inner.jobs = 1;
  std::vector<FoldResult> results(folds);
  FoldReport report{.folds = folds};
  int symptom_correct = 0, root_cause_correct = 0;
  std::mutex progress_mutex;
  common::run_in_parallel(static_cast<size_t>(folds), jobs, [&](size_t f) {
    results[f] = run_fold(labeled, fold, static_cast<int>(f), inner, labels);
    std::lock_guard<std::mutex> lock(progress_mutex);
    ++report.done;
    for (const auto& h : results[f].symptom) symptom_correct += h.truth == h.combined;
    for (const auto& h : results[f].root_cause) root_cause_correct += h.truth == h.combined;
    report.held_out += static_cast<int>(results[f].symptom.size());
    report.symptom_accuracy = static_cast<double>(symptom_correct) / report.held_out;
    report.root_cause_accuracy = static_cast<double>(root_cause_correct) / report.held_out;
    if (progress) progress(report);
  });
  auto [symptom, cause] = score_held_out(results);
  return {static_cast<int>(labeled.size()), folds, symptom, cause};
}

namespace {

// Fold 0 is the test part, 1 the training part, -1 neither (no creation date).
int time_split_part(const LabeledIssue& l, const std::string& cut) {
  return l.issue.created.empty() ? -1 : l.issue.created < cut ? 1 : 0;
}

}  // namespace

TimeSplit plan_time_split(const std::vector<LabeledIssue>& labeled, double share, const AxisTraining& training) {
  std::vector<std::string> dates;
  for (const auto& l : labeled) {
    if (!l.issue.created.empty()) dates.push_back(l.issue.created);
  }
  std::sort(dates.begin(), dates.end());
  TimeSplit split;
  split.undated = static_cast<int>(labeled.size() - dates.size());
  if (dates.empty())
    throw Error("eval: no labeled issue has a creation date, so there is no time split (--time-split 0 skips it)");
  const size_t at = std::min(static_cast<size_t>(share * static_cast<double>(dates.size())), dates.size());
  if (at == dates.size())
    throw Error("eval: no labeled issue is newer than the time split's cut (" + std::to_string(dates.size()) +
                " dated labeled issues)");
  split.cut = dates[at];
  for (const auto& l : labeled) {
    const int part = time_split_part(l, split.cut);
    split.train += part == 1;
    split.test += part == 0;
  }
  // Issues created on the cut's date are all tested: many on one date can leave too few to train on.
  if (split.train < training.folds) {
    char at_share[32];
    std::snprintf(at_share, sizeof at_share, "%g", share);
    throw Error("eval: the time split at " + std::string(at_share) + " trains on the " +
                std::to_string(split.train) + " labeled issues created before " + split.cut + " (of " +
                std::to_string(dates.size()) + " dated), fewer than the " + std::to_string(training.folds) +
                " its model's cross-validation needs; give a larger --time-split, or 0 to skip it");
  }
  return split;
}

TimeSplit evaluate_time_split(const std::vector<LabeledIssue>& labeled, TimeSplit split,
                              const AxisTraining& training, const LabelPolicy& labels) {
  std::vector<int> part;
  for (const auto& l : labeled) part.push_back(time_split_part(l, split.cut));
  std::tie(split.symptom, split.root_cause) = score_held_out({run_fold(labeled, part, 0, training, labels)});
  return split;
}

nlohmann::json evaluation_json(const Evaluation& e) {
  nlohmann::json j = {{"n", e.n},
                      {"folds", e.folds},
                      {"symptom", combined_json(e.symptom)},
                      {"root_cause", combined_json(e.root_cause)}};
  j["baselines"] = baselines_json(e.symptom, e.root_cause);
  if (e.time_split) {
    const auto& t = *e.time_split;
    j["time_split"] = {{"cut", t.cut},
                       {"train", t.train},
                       {"test", t.test},
                       {"undated", t.undated},
                       {"symptom", combined_json(t.symptom)},
                       {"root_cause", combined_json(t.root_cause)},
                       {"baselines", baselines_json(t.symptom, t.root_cause)}};
  }
  return j;
}

}  // namespace faultline::model
