#include "classifier/model/axis_model.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/text_file.hpp"
#include "common/seeded_random.hpp"
#include "common/error.hpp"
#include "common/largest_entry.hpp"

namespace faultline::model {

AxisTraining AxisTraining::standard() {
  AxisTraining t;
  for (int ngrams : {1, 2}) {
    FastTextParams p;
    p.word_ngrams = ngrams;
    p.lr = 1.0;
    p.epoch = 40;
    t.grid.push_back(p);
  }
  return t;
}

Distribution combine(const Distribution& fasttext, const Distribution& rule_scores, double rule_weight,
                     double temperature) {
  Distribution z;
  double top = -std::numeric_limits<double>::infinity();
  for (const auto& [c, p] : fasttext) {
    auto it = rule_scores.find(c);
    double score = std::log(std::max(p, 1e-4)) + rule_weight * (it == rule_scores.end() ? 0.0 : it->second);
    z[c] = score / temperature;
    top = std::max(top, z[c]);
  }
  double sum = 0;
  for (auto& [c, v] : z) sum += (v = std::exp(v - top));
  for (auto& [c, v] : z) v /= sum;
  return z;
}

std::vector<int> stratified_folds(const std::vector<std::string>& labels, int folds, uint64_t seed) {
  std::map<std::string, std::vector<size_t>> by_label;
  for (size_t i = 0; i < labels.size(); ++i) by_label[labels[i]].push_back(i);
  std::vector<int> fold(labels.size());
  int next = 0;
  for (const auto& [label, items] : by_label) {
    for (size_t k : common::seeded_permutation(items.size(), seed)) fold[items[k]] = next++ % folds;
  }
  return fold;
}

namespace {

double log_loss(const Distribution& d, const std::string& label) {
  auto it = d.find(label);
  return -std::log(std::max(it == d.end() ? 0.0 : it->second, 1e-6));
}

std::string majority_label(const std::vector<AxisExample>& examples) {
  std::map<std::string, int> counts;
  for (const auto& e : examples) ++counts[e.label];
  return common::largest_entry(counts).first;  // ties: alphabetically first, as the map is ordered
}

FastTextModel fit(const std::vector<AxisExample>& examples, const std::vector<size_t>& rows,
                  const FastTextParams& params) {
  std::vector<std::string> docs, labels;
  for (size_t i : rows) {
    docs.push_back(examples[i].document);
    labels.push_back(examples[i].label);
  }
  return FastTextModel::train(docs, labels, params);
}

// Out-of-fold fastText distributions for every example under `params`.
std::vector<Distribution> out_of_fold(const std::vector<AxisExample>& examples, const std::vector<int>& fold,
                                      int folds, const FastTextParams& params) {
  std::vector<Distribution> out(examples.size());
  for (int f = 0; f < folds; ++f) {
    std::vector<size_t> train;
    for (size_t i = 0; i < examples.size(); ++i) {
      if (fold[i] != f) train.push_back(i);
    }
    if (train.size() == examples.size()) continue;
    FastTextModel model = fit(examples, train, params);
    for (size_t i = 0; i < examples.size(); ++i) {
      if (fold[i] == f) out[i] = model.predict(examples[i].document);
    }
  }
  return out;
}

// Accuracy first, log loss to break ties: the criterion every grid below is searched with.
struct Score {
  int correct = 0;
  double loss = 0;
  bool better_than(const Score& o) const {
    return correct != o.correct ? correct > o.correct : loss < o.loss - 1e-9;
  }
};

Score score(const std::vector<AxisExample>& examples, const std::vector<Distribution>& oof, double weight,
            double t) {
  Score s;
  for (size_t i = 0; i < examples.size(); ++i) {
    Distribution d = combine(oof[i], examples[i].rule_scores, weight, t);
    if (common::largest_entry(d).first == examples[i].label) ++s.correct;
    s.loss += log_loss(d, examples[i].label);
  }
  return s;
}

}  // namespace

AxisModel AxisModel::train(const std::string& axis, const std::vector<AxisExample>& examples,
                           const AxisTraining& training) {
  if (examples.size() < static_cast<size_t>(training.folds)) {
    throw Error("train: the " + axis + " axis has " + std::to_string(examples.size()) +
                " labeled examples, fewer than the " + std::to_string(training.folds) +
                " cross-validation folds");
  }
  std::vector<std::string> labels;
  for (const auto& e : examples) labels.push_back(e.label);
  std::vector<int> fold = stratified_folds(labels, training.folds, training.seed);

  AxisModel m;
  m.axis_ = axis;
  m.majority_ = majority_label(examples);
  Score best_score;
  best_score.correct = -1;
  std::vector<Distribution> best_oof;
  for (const auto& params : training.grid) {
    auto oof = out_of_fold(examples, fold, training.folds, params);
    Score s = score(examples, oof, 0.0, 1.0);
    if (best_score.correct < 0 || s.better_than(best_score)) {
      best_score = s;
      best_oof = std::move(oof);
      m.params_ = params;
    }
  }
  best_score.correct = -1;
  for (double w : training.rule_weights) {
    Score s = score(examples, best_oof, w, 1.0);
    if (best_score.correct < 0 || s.better_than(best_score)) best_score = s, m.rule_weight_ = w;
  }
  double best_loss = std::numeric_limits<double>::infinity();
  for (double t : training.temperatures) {
    double loss = score(examples, best_oof, m.rule_weight_, t).loss;
    if (loss < best_loss - 1e-9) best_loss = loss, m.temperature_ = t;
  }
  std::vector<size_t> all(examples.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  m.fasttext_ = fit(examples, all, m.params_);
  return m;
}

Distribution AxisModel::predict(const Tokens& tokens, const Distribution& rule_scores) const {
  return combine(fasttext_.predict(tokens), rule_scores, rule_weight_, temperature_);
}

std::string AxisModel::predict_rules(const Distribution& rule_scores) const {
  std::string category = common::largest_entry(rule_scores).first;
  return category.empty() ? majority_ : category;
}

nlohmann::json AxisModel::describe() const {
  return {{"axis", axis_},        {"fasttext", params_.describe()},     {"epoch", params_.epoch},
          {"lr", params_.lr},     {"word_ngrams", params_.word_ngrams}, {"dim", params_.dim},
          {"seed", params_.seed}, {"rule_weight", rule_weight_},        {"temperature", temperature_},
          {"majority", majority_}};
}

void AxisModel::save(const std::string& directory) const {
  fasttext_.save(directory + "/" + axis_ + ".ftz");
  std::ofstream(directory + "/" + axis_ + ".json") << describe().dump(2) << '\n';
}

AxisModel AxisModel::load(const std::string& directory, const std::string& axis) {
  AxisModel m;
  m.axis_ = axis;
  std::string path = directory + "/" + axis + ".json";
  try {
    auto j = nlohmann::json::parse(common::read_text_file(path));
    m.params_.epoch = j.at("epoch").get<int>();
    m.params_.lr = j.at("lr").get<double>();
    m.params_.word_ngrams = j.at("word_ngrams").get<int>();
    m.params_.dim = j.at("dim").get<int>();
    m.params_.seed = j.at("seed").get<int>();
    m.rule_weight_ = j.at("rule_weight").get<double>();
    m.temperature_ = j.at("temperature").get<double>();
    m.majority_ = j.at("majority").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(path + ": damaged model description (" + e.what() + "); retrain with 'faultline train'");
  }
  m.fasttext_ = FastTextModel::load(directory + "/" + axis + ".ftz");
  return m;
}

}  // namespace faultline::model
