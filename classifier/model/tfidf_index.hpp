// TF-IDF cosine similarity over normalised documents, with an inverted index: the nearest labeled issues
// of a document, for the classifier's neighbour vote.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "classifier/model/fasttext_model.hpp"

namespace faultline::model {

struct Neighbour {
  size_t item = 0;        // index into the documents the index was built from
  double similarity = 0;  // cosine in [0, 1]
};

// How a term that occurs n times in a document weighs there: 1 + ln n, or once whatever n is (a long log
// that repeats a word then says no more of it than a line that has it once).
enum class TermCounts { kDamped, kOnce };

// The name a saved model gives each counting ("damped", "once"), and back; nullopt for any other name.
std::string_view term_counts_name(TermCounts counts);
std::optional<TermCounts> term_counts_named(std::string_view name);

// One search of TfidfIndex::nearest_terms_both: how its terms are counted, and the documents before which
// are its candidates.
struct NeighbourSearch {
  TermCounts counts = TermCounts::kDamped;
  size_t items_below = SIZE_MAX;
};

class TfidfIndex {
 public:
  TfidfIndex() = default;
  // Documents as tokenize() gives them (its end-of-line token is not a term). Weights: tf · ln(1 + N / df),
  // tf as TermCounts says, rows L2-normalised. Terms in more than `max_document_share` of the documents are
  // left out (as if never seen).
  explicit TfidfIndex(const std::vector<Tokens>& documents, double max_document_share = 1.0);

  // The `k` most similar documents with a similarity above 0, most similar first (ties: lower index), the
  // query's and the documents' terms counted as `counts` says; only documents before `items_below` are
  // candidates (the others still count in every term's document frequency). Tokens the index has never
  // seen carry no weight.
  std::vector<Neighbour> nearest(const Tokens& query, size_t k, TermCounts counts = TermCounts::kDamped,
                                 size_t items_below = SIZE_MAX) const {
    return nearest_terms(term_ids(query), k, counts, items_below);
  }
  // The same from the query's term ids (repeats kept), as term_ids() or a WordTable of vocabulary() gives.
  std::vector<Neighbour> nearest_terms(const std::vector<int32_t>& term_ids, size_t k,
                                       TermCounts counts = TermCounts::kDamped,
                                       size_t items_below = SIZE_MAX) const;
  // Two searches at once, as nearest_terms gives each, in one pass over the query's postings that scores
  // each counting either of them needs.
  std::array<std::vector<Neighbour>, 2> nearest_terms_both(const std::vector<int32_t>& term_ids, size_t k,
                                                           std::array<NeighbourSearch, 2> searches = {
                                                               NeighbourSearch{TermCounts::kDamped},
                                                               NeighbourSearch{TermCounts::kOnce}}) const;
  std::vector<int32_t> term_ids(const Tokens& tokens) const;
  // Each term's word by id; empty for a term left out (too common), which no query can find.
  std::vector<std::string> vocabulary() const;
  size_t size() const { return size_; }

 private:
  struct Posting {
    size_t item;
    double weight[2];  // by TermCounts
  };
  // Each item's cosine with the query under the countings `wanted` asks for (by TermCounts); 0 under the
  // others.
  std::vector<std::array<double, 2>> score_items(const std::vector<int32_t>& term_ids,
                                                 const bool wanted[2]) const;
  struct Term {
    std::string word;
    size_t next_same_hash = SIZE_MAX;  // another term whose word has the same hash
    double idf = 0;
    std::vector<Posting> postings;
  };
  // Terms are found by the word hash tokenize() computed anyway, then checked by their word.
  size_t find(const std::string& word, uint32_t hash) const;

  std::unordered_map<uint32_t, size_t> first_term_by_hash_;
  std::vector<Term> terms_;  // by id
  size_t size_ = 0;
};

}  // namespace faultline::model
