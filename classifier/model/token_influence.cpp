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

// The features with every occurrence of `token` gone from the document and its tokens; the rule hits stay.
IssueFeatures without(const IssueFeatures& features, const std::string& token) {
  IssueFeatures out = features;  // every rule hit stays
  out.document.clear();
  out.tokens = {};
  const Tokens& t = features.tokens;
  const TokenSpan again = features.discussion_again;
  for (size_t i = 0; i < t.words.size(); ++i) {
    if (t.words[i] == token) {  // the tokens after it move one place back
      if (i < again.begin) --out.discussion_again.begin;
      if (i < again.end) --out.discussion_again.end;
      continue;
    }
    out.tokens.words.push_back(t.words[i]);
    out.tokens.hashes.push_back(t.hashes[i]);
    if (t.words[i] == fasttext::Dictionary::EOS) continue;
    out.document += (out.document.empty() ? "" : " ") + t.words[i];
  }
  return out;
}

// One axis: the class it chose, its distribution in an analysis, and the influences found so far.
struct Axis {
  std::string chosen;
  const Distribution IssueAnalysis::*distribution;
  std::vector<TokenInfluence>* out;
  double base = 0;
};

double probability_of(const Distribution& d, const std::string& label) {
  auto it = d.find(label);
  return it == d.end() ? 0.0 : it->second;
}

}  // namespace

DecisionInfluences token_influences(const IssueClassifier& model, const IssueFeatures& features,
                                    const IssuePrediction& prediction, size_t top, size_t budget) {
  DecisionInfluences result;
  std::vector<Axis> axes{{prediction.symptom, &IssueAnalysis::symptom, &result.symptom},
                         {prediction.root_cause, &IssueAnalysis::root_cause, &result.root_cause}};
  if (prediction.scope != "unknown") axes.push_back({prediction.scope, &IssueAnalysis::scope, &result.scope});
  const IssueAnalysis base = model.analyse(features);
  for (auto& a : axes) a.base = probability_of(base.*a.distribution, a.chosen);

  auto tried = candidates(features.tokens);
  result.tokens_distinct = tried.size();
  const size_t length = std::max<size_t>(1, features.tokens.words.size());
  tried.resize(std::min(tried.size(), std::max(kMinTries, budget / length)));
  result.tokens_tried = tried.size();
  for (const auto& c : tried) {
    // The whole classifier again, its neighbour vote included: the token also leaves the similarity search.
    const IssueAnalysis rest = model.analyse(without(features, c.token));
    for (auto& a : axes) {
      double drop = a.base - probability_of(rest.*a.distribution, a.chosen);
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
