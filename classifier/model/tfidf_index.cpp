#include "classifier/model/tfidf_index.hpp"

#include <algorithm>
#include <cmath>

namespace faultline::model {

namespace {

double tf_weight(size_t count, TermCounts counts) {
  return counts == TermCounts::kOnce ? 1.0 : 1.0 + std::log(static_cast<double>(count));
}

constexpr TermCounts kCountings[] = {TermCounts::kDamped, TermCounts::kOnce};
constexpr std::string_view kCountingNames[] = {"damped", "once"};  // by TermCounts

// The distinct ids with their counts, by ascending id (so every sum over them runs in the same order).
template <typename Id>
std::vector<std::pair<size_t, size_t>> id_counts(std::vector<Id> ids) {
  std::sort(ids.begin(), ids.end());
  std::vector<std::pair<size_t, size_t>> out;
  for (Id i : ids) {
    const auto id = static_cast<size_t>(i);
    if (!out.empty() && out.back().first == id) {
      ++out.back().second;
    } else {
      out.emplace_back(id, 1);
    }
  }
  return out;
}

}  // namespace

std::string_view term_counts_name(TermCounts counts) { return kCountingNames[static_cast<size_t>(counts)]; }

std::optional<TermCounts> term_counts_named(std::string_view name) {
  for (const TermCounts c : kCountings) {
    if (term_counts_name(c) == name) return c;
  }
  return std::nullopt;
}

size_t TfidfIndex::find(const std::string& word, uint32_t hash) const {
  auto it = first_term_by_hash_.find(hash);
  for (size_t id = it == first_term_by_hash_.end() ? SIZE_MAX : it->second; id != SIZE_MAX;
       id = terms_[id].next_same_hash) {
    if (terms_[id].word == word) return id;
  }
  return SIZE_MAX;
}

TfidfIndex::TfidfIndex(const std::vector<Tokens>& documents, double max_document_share)
    : size_(documents.size()) {
  std::vector<std::vector<std::pair<size_t, size_t>>> counts;
  counts.reserve(documents.size());
  for (const auto& d : documents) {
    std::vector<size_t> ids;
    for (size_t i = 0; i < d.words.size(); ++i) {
      if (d.words[i] == end_of_line_token()) continue;  // in every document: not a term
      size_t id = find(d.words[i], d.hashes[i]);
      if (id == SIZE_MAX) {
        id = terms_.size();
        auto [first, added] = first_term_by_hash_.try_emplace(d.hashes[i], id);
        terms_.push_back({d.words[i], added ? SIZE_MAX : first->second, 0, {}});
        first->second = id;
      }
      ids.push_back(id);
    }
    counts.push_back(id_counts(std::move(ids)));
    for (const auto& [id, n] : counts.back()) terms_[id].postings.push_back({counts.size() - 1, {0, 0}});
  }
  for (auto& t : terms_) {
    t.idf = std::log(1.0 + static_cast<double>(size_) / static_cast<double>(t.postings.size()));
    // A term in too many documents says little about which are alike and costs the longest postings.
    if (static_cast<double>(t.postings.size()) > max_document_share * static_cast<double>(size_)) {
      t.idf = 0;
      t.postings.clear();
    }
  }
  for (size_t i = 0; i < counts.size(); ++i) {
    double norm[2] = {0, 0};
    for (const TermCounts c : kCountings) {
      for (const auto& [id, n] : counts[i])
        norm[static_cast<int>(c)] += std::pow(tf_weight(n, c) * terms_[id].idf, 2);
    }
    if (norm[0] == 0) continue;  // only dropped terms (under either counting alike)
    for (const auto& [id, n] : counts[i]) {
      auto& postings = terms_[id].postings;
      if (postings.empty()) continue;
      auto it = std::lower_bound(postings.begin(), postings.end(), i,
                                 [](const Posting& p, size_t item) { return p.item < item; });
      for (const TermCounts c : kCountings) {
        const int w = static_cast<int>(c);
        it->weight[w] = tf_weight(n, c) * terms_[id].idf / std::sqrt(norm[w]);
      }
    }
  }
}

std::vector<std::string> TfidfIndex::vocabulary() const {
  std::vector<std::string> words;
  for (const auto& t : terms_) words.push_back(t.postings.empty() ? std::string() : t.word);
  return words;
}

std::vector<int32_t> TfidfIndex::term_ids(const Tokens& tokens) const {
  std::vector<int32_t> ids;
  ids.reserve(tokens.words.size());
  for (size_t i = 0; i < tokens.words.size(); ++i) {
    size_t id = find(tokens.words[i], tokens.hashes[i]);
    if (id != SIZE_MAX && !terms_[id].postings.empty()) ids.push_back(static_cast<int32_t>(id));
  }
  return ids;
}

namespace {

// The k most similar by (similarity, then index), a total order, so the k and their order are unique. A heap
// of the k best so far with the least similar on top, filled in one pass over the items: no collecting and
// partially sorting every item that shares a term, and O(n log k) when triage asks for all.
// Candidates are the items before `items_below`.
std::vector<Neighbour> most_similar(const std::vector<std::array<double, 2>>& score, int w, size_t k,
                                    size_t items_below) {
  auto more_similar = [](const Neighbour& a, const Neighbour& b) {
    return a.similarity != b.similarity ? a.similarity > b.similarity : a.item < b.item;
  };
  std::vector<Neighbour> out;
  const size_t candidates = std::min(items_below, score.size());
  out.reserve(std::min(k, candidates));
  for (size_t i = 0; i < candidates && k > 0; ++i) {
    if (!(score[i][w] > 1e-12)) continue;
    const Neighbour candidate{i, std::min(score[i][w], 1.0)};
    if (out.size() < k) {
      out.push_back(candidate);
      std::push_heap(out.begin(), out.end(), more_similar);
    } else if (more_similar(candidate, out.front())) {
      std::pop_heap(out.begin(), out.end(), more_similar);
      out.back() = candidate;
      std::push_heap(out.begin(), out.end(), more_similar);
    }
  }
  std::sort_heap(out.begin(), out.end(), more_similar);
  return out;
}

}  // namespace

std::vector<std::array<double, 2>> TfidfIndex::score_items(const std::vector<int32_t>& term_ids,
                                                           const bool wanted[2]) const {
  std::vector<std::array<double, 2>> score(size_, {0, 0});
  const auto counts = id_counts(term_ids);
  // The query's weight of each of its terms under each counting, as a unit vector.
  std::vector<std::array<double, 2>> unit(counts.size(), {0, 0});
  for (const TermCounts c : kCountings) {
    const int w = static_cast<int>(c);
    if (!wanted[w]) continue;
    double norm = 0;
    for (size_t t = 0; t < counts.size(); ++t) {
      unit[t][w] = tf_weight(counts[t].second, c) * terms_[counts[t].first].idf;
      norm += unit[t][w] * unit[t][w];
    }
    if (norm == 0) return score;  // no term the index knows: nothing is similar
    for (auto& u : unit) u[w] /= std::sqrt(norm);
  }
  // One loop per case, so that a search for one counting does the work of one.
  for (size_t t = 0; t < counts.size(); ++t) {
    const auto& postings = terms_[counts[t].first].postings;
    if (wanted[0] && wanted[1]) {
      for (const auto& p : postings) {
        score[p.item][0] += p.weight[0] * unit[t][0];
        score[p.item][1] += p.weight[1] * unit[t][1];
      }
    } else {
      const int w = wanted[0] ? 0 : 1;
      for (const auto& p : postings) score[p.item][w] += p.weight[w] * unit[t][w];
    }
  }
  return score;
}

std::vector<Neighbour> TfidfIndex::nearest_terms(const std::vector<int32_t>& term_ids, size_t k,
                                                 TermCounts counts, size_t items_below) const {
  const int w = static_cast<int>(counts);
  const bool wanted[2] = {w == 0, w == 1};
  return most_similar(score_items(term_ids, wanted), w, k, items_below);
}

std::array<std::vector<Neighbour>, 2> TfidfIndex::nearest_terms_both(
    const std::vector<int32_t>& term_ids, size_t k, std::array<NeighbourSearch, 2> searches) const {
  bool wanted[2] = {false, false};
  for (const NeighbourSearch& s : searches) wanted[static_cast<int>(s.counts)] = true;
  const auto score = score_items(term_ids, wanted);
  return {most_similar(score, static_cast<int>(searches[0].counts), k, searches[0].items_below),
          most_similar(score, static_cast<int>(searches[1].counts), k, searches[1].items_below)};
}

}  // namespace faultline::model
