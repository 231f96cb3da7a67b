#include "classifier/model/similar_issues.hpp"

#include <fasttext/dictionary.h>

#include <algorithm>
#include <cmath>

namespace faultline::model {

namespace {

std::unordered_map<std::string, int> counts_of(const std::vector<std::string>& tokens) {
  std::unordered_map<std::string, int> counts;
  for (const auto& t : tokens) ++counts[t];
  return counts;
}

double tf(int count) { return 1.0 + std::log(static_cast<double>(count)); }

}  // namespace

SimilarIssues::SimilarIssues(const std::vector<std::vector<std::string>>& documents)
    : documents_(documents.size()) {
  std::vector<std::unordered_map<std::string, int>> counts;
  counts.reserve(documents.size());
  std::unordered_map<std::string, int> df;
  for (const auto& d : documents) {
    counts.push_back(counts_of(d));
    for (const auto& [token, n] : counts.back()) ++df[token];
  }
  const double n_docs = static_cast<double>(documents_);
  for (const auto& [token, n] : df) terms_[token].idf = 1.0 + std::log((1.0 + n_docs) / (1.0 + n));
  for (size_t i = 0; i < counts.size(); ++i) {
    double norm2 = 0;
    for (const auto& [token, n] : counts[i]) norm2 += std::pow(tf(n) * terms_.at(token).idf, 2);
    const double norm = std::sqrt(norm2);
    for (const auto& [token, n] : counts[i]) {
      Term& term = terms_.at(token);
      term.postings.push_back({static_cast<uint32_t>(i), tf(n) * term.idf / norm});
    }
  }
}

double SimilarIssues::idf_of_unknown() const { return 1.0 + std::log(1.0 + static_cast<double>(documents_)); }

std::vector<SimilarMatch> SimilarIssues::nearest(const std::vector<std::string>& tokens, size_t k) const {
  std::unordered_map<uint32_t, double> dot;
  double norm2 = 0;
  for (const auto& [token, n] : counts_of(tokens)) {
    auto it = terms_.find(token);
    const double w = tf(n) * (it == terms_.end() ? idf_of_unknown() : it->second.idf);
    norm2 += w * w;
    if (it == terms_.end()) continue;
    for (const auto& p : it->second.postings) dot[p.item] += w * p.weight;
  }
  std::vector<SimilarMatch> out;
  if (norm2 == 0) return out;
  const double norm = std::sqrt(norm2);
  out.reserve(dot.size());
  // Rounding can put an identical document a hair above 1.
  for (const auto& [item, d] : dot) out.push_back({item, std::min(1.0, d / norm)});
  auto more_similar = [](const SimilarMatch& a, const SimilarMatch& b) {
    return a.similarity != b.similarity ? a.similarity > b.similarity : a.item < b.item;
  };
  if (out.size() > k) {
    std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(k), out.end(), more_similar);
    out.resize(k);
  } else {
    std::sort(out.begin(), out.end(), more_similar);
  }
  return out;
}

std::vector<std::string> index_tokens(const IssueFeatures& features) {
  std::vector<std::string> out;
  out.reserve(features.tokens.words.size());
  for (const auto& w : features.tokens.words) {
    if (w != fasttext::Dictionary::EOS) out.push_back(w);
  }
  return out;
}

Distribution knn_vote(const std::vector<SimilarMatch>& matches, const std::vector<std::string>& labels) {
  Distribution votes;
  double total = 0;
  for (const auto& m : matches) {
    if (m.similarity <= 0) continue;
    votes[labels.at(m.item)] += m.similarity;
    total += m.similarity;
  }
  for (auto& [label, v] : votes) v /= total;
  return votes;
}

}  // namespace faultline::model
