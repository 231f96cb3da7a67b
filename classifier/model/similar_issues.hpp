// The labeled issues most similar to an issue: TF-IDF cosine over the classifier's normalised tokens, with an
// inverted index so that a query only visits the documents sharing one of its tokens. Also a kNN voter: the
// labels of the nearest issues, weighted by their similarity.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "classifier/model/axis_model.hpp"
#include "classifier/model/issue_classifier.hpp"

namespace faultline::model {

struct SimilarMatch {
  size_t item = 0;        // index of the document, in the order the index was built from
  double similarity = 0;  // cosine in [0, 1]
};

class SimilarIssues {
 public:
  // Each document is its token list; repeated tokens count. A token's weight is tf·idf with tf = 1 +
  // ln(count) and the smoothed idf = 1 + ln((1 + N) / (1 + df)), N documents of which df hold the token: a
  // token in every document still counts a little, so an issue's own copy is always similarity 1.
  explicit SimilarIssues(const std::vector<std::vector<std::string>>& documents);
  SimilarIssues() = default;  // no documents: every query has no match

  // The `k` documents most similar to `tokens`, most similar first (ties: the earlier document first).
  // Documents that share no token with it are not returned. A query token no document holds weighs as a
  // token of df 0: it counts in the query's length, so extra unknown text makes every match less similar.
  std::vector<SimilarMatch> nearest(const std::vector<std::string>& tokens, size_t k) const;
  size_t size() const { return documents_; }

 private:
  struct Posting {
    uint32_t item;
    double weight;  // tf·idf divided by the document's length
  };
  struct Term {
    double idf = 0;
    std::vector<Posting> postings;
  };
  double idf_of_unknown() const;

  size_t documents_ = 0;
  std::unordered_map<std::string, Term> terms_;
};

// An issue's tokens as the index takes them: those of its normalised document (fastText's end-of-line token,
// which every document would share, left out).
std::vector<std::string> index_tokens(const IssueFeatures& features);

// Similarity-weighted vote over `matches`: for each label, the sum of the similarities of the matches that
// carry it (`labels` is indexed by SimilarMatch::item) divided by the sum of all; empty when the matches
// weigh nothing.
Distribution knn_vote(const std::vector<SimilarMatch>& matches, const std::vector<std::string>& labels);

}  // namespace faultline::model
