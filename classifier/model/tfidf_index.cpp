#include "classifier/model/tfidf_index.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace faultline::model {

namespace {

// Term counts of one document, ordered so that sums run in the same order everywhere.
std::map<std::string, int> term_counts(const std::vector<std::string>& tokens) {
  std::map<std::string, int> counts;
  for (const auto& t : tokens) ++counts[t];
  return counts;
}

double tf_weight(int count) { return 1.0 + std::log(static_cast<double>(count)); }

}  // namespace

std::vector<std::string> split_tokens(const std::string& document) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < document.size()) {
    size_t end = document.find(' ', start);
    if (end == std::string::npos) end = document.size();
    if (end > start) out.push_back(document.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

TfidfIndex::TfidfIndex(const std::vector<std::vector<std::string>>& documents) : size_(documents.size()) {
  std::vector<std::map<std::string, int>> counts;
  counts.reserve(documents.size());
  for (const auto& d : documents) {
    counts.push_back(term_counts(d));
    for (const auto& [term, n] : counts.back()) terms_[term].postings.push_back({counts.size() - 1, 0});
  }
  for (auto& [term, t] : terms_) {
    t.idf = std::log(1.0 + static_cast<double>(size_) / static_cast<double>(t.postings.size()));
  }
  for (size_t i = 0; i < counts.size(); ++i) {
    double norm = 0;
    for (const auto& [term, n] : counts[i]) norm += std::pow(tf_weight(n) * terms_[term].idf, 2);
    norm = std::sqrt(norm);
    for (const auto& [term, n] : counts[i]) {
      auto& postings = terms_[term].postings;
      auto it = std::lower_bound(postings.begin(), postings.end(), i,
                                 [](const Posting& p, size_t item) { return p.item < item; });
      it->weight = tf_weight(n) * terms_[term].idf / norm;
    }
  }
}

std::vector<Neighbour> TfidfIndex::nearest(std::span<const std::string> tokens, size_t k) const {
  // Distinct tokens in sorted order, counted without copying them: this runs for every issue classified.
  std::vector<const std::string*> sorted;
  sorted.reserve(tokens.size());
  for (const auto& t : tokens) sorted.push_back(&t);
  std::sort(sorted.begin(), sorted.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  std::vector<std::pair<const Term*, double>> query;
  double norm = 0;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j < sorted.size() && *sorted[j] == *sorted[i]) ++j;
    auto it = terms_.find(*sorted[i]);
    if (it != terms_.end()) {
      double w = tf_weight(static_cast<int>(j - i)) * it->second.idf;
      query.emplace_back(&it->second, w);
      norm += w * w;
    }
    i = j;
  }
  if (norm == 0) return {};
  norm = std::sqrt(norm);
  std::vector<double> score(size_, 0.0);
  for (const auto& [term, w] : query) {
    const double unit = w / norm;
    for (const auto& p : term->postings) score[p.item] += p.weight * unit;
  }
  std::vector<Neighbour> out;
  for (size_t i = 0; i < size_; ++i) {
    if (score[i] > 1e-12) out.push_back({i, std::min(score[i], 1.0)});
  }
  auto more_similar = [](const Neighbour& a, const Neighbour& b) {
    return a.similarity != b.similarity ? a.similarity > b.similarity : a.item < b.item;
  };
  if (out.size() > k) {
    std::partial_sort(out.begin(), out.begin() + static_cast<long>(k), out.end(), more_similar);
    out.resize(k);
  } else {
    std::sort(out.begin(), out.end(), more_similar);
  }
  return out;
}

}  // namespace faultline::model
