#include "classifier/model/token_influence.hpp"

#include <fasttext/dictionary.h>

#include <algorithm>
#include <unordered_map>

namespace faultline::model {

namespace {

constexpr size_t kMinTries = 5;  // as many as a full list of influences holds

struct Candidate {
  std::string token;
  size_t count = 0;
  size_t first = 0;
};

// The distinct tokens that may be tried, most frequent first, then by first occurrence.
std::vector<Candidate> candidates(const Tokens& tokens) {
  std::unordered_map<std::string, size_t> at;
  std::vector<Candidate> out;
  for (size_t i = 0; i < tokens.words.size(); ++i) {
    const std::string& w = tokens.words[i];
    if (w == fasttext::Dictionary::EOS || w.rfind("__rule_", 0) == 0) continue;
    auto [it, inserted] = at.emplace(w, out.size());
    if (inserted) out.push_back({w, 0, i});
    ++out[it->second].count;
  }
  std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
    return a.count != b.count ? a.count > b.count : a.first < b.first;
  });
  return out;
}

Tokens without(const Tokens& tokens, const std::string& token) {
  Tokens out;
  for (size_t i = 0; i < tokens.words.size(); ++i) {
    if (tokens.words[i] == token) continue;
    out.words.push_back(tokens.words[i]);
    out.hashes.push_back(tokens.hashes[i]);
  }
  return out;
}

// One axis: its model, the rule scores it combines, the class it chose, and the influences found so far.
struct Axis {
  const AxisModel* model;
  const Distribution* rule_scores;
  std::string chosen;
  double base = 0;
  std::vector<TokenInfluence>* out;
};

double probability_of(const Distribution& d, const std::string& label) {
  auto it = d.find(label);
  return it == d.end() ? 0.0 : it->second;
}

}  // namespace

DecisionInfluences token_influences(const IssueClassifier& model, const IssueFeatures& features,
                                    const IssuePrediction& prediction, size_t top, size_t budget) {
  DecisionInfluences result;
  std::vector<Axis> axes{
      {&model.symptom_model(), &features.symptom_rules, prediction.symptom, 0, &result.symptom},
      {&model.root_cause_model(), &features.root_cause_rules, prediction.root_cause, 0, &result.root_cause}};
  static const Distribution kNoRules;
  if (const AxisModel* scope = model.scope_model()) {
    axes.push_back({scope, &kNoRules, prediction.scope, 0, &result.scope});
  }
  for (auto& a : axes) a.base = probability_of(a.model->predict(features.tokens, *a.rule_scores), a.chosen);

  auto tried = candidates(features.tokens);
  result.tokens_distinct = tried.size();
  const size_t length = std::max<size_t>(1, features.tokens.words.size());
  tried.resize(std::min(tried.size(), std::max(kMinTries, budget / length)));
  result.tokens_tried = tried.size();
  for (const auto& c : tried) {
    Tokens rest = without(features.tokens, c.token);
    for (auto& a : axes) {
      double drop = a.base - probability_of(a.model->predict(rest, *a.rule_scores), a.chosen);
      if (drop > 0) a.out->push_back({c.token, drop});
    }
  }
  for (auto& a : axes) {
    std::sort(a.out->begin(), a.out->end(), [](const TokenInfluence& x, const TokenInfluence& y) {
      return x.drop != y.drop ? x.drop > y.drop : x.token < y.token;
    });
    if (a.out->size() > top) a.out->resize(top);
  }
  return result;
}

}  // namespace faultline::model
