// TF-IDF cosine similarity over normalised documents, with an inverted index: the nearest labeled issues
// of a document, for the classifier's neighbour vote.
#pragma once

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace faultline::model {

struct Neighbour {
  size_t item = 0;        // index into the documents the index was built from
  double similarity = 0;  // cosine in [0, 1]
};

class TfidfIndex {
 public:
  TfidfIndex() = default;
  // Each document is a list of tokens. Weights: (1 + ln tf) · ln(1 + N / df), rows L2-normalised.
  explicit TfidfIndex(const std::vector<std::vector<std::string>>& documents);

  // The `k` most similar documents with a similarity above 0, most similar first (ties: lower index).
  // Tokens the index has never seen carry no weight.
  std::vector<Neighbour> nearest(std::span<const std::string> tokens, size_t k) const;
  size_t size() const { return size_; }

 private:
  struct Posting {
    size_t item;
    double weight;
  };
  struct Term {
    double idf = 0;
    std::vector<Posting> postings;
  };
  std::unordered_map<std::string, Term> terms_;
  size_t size_ = 0;
};

// Splits a normalised document on spaces.
std::vector<std::string> split_tokens(const std::string& document);

}  // namespace faultline::model
