#include "classifier/model/word_table.hpp"

#include <string>

#include "common/error.hpp"

namespace faultline::model {

WordTable::WordTable(const std::vector<std::vector<std::string>>& vocabularies)
    : members_(vocabularies.size()) {
  size_t most = 0;
  for (const auto& v : vocabularies) most += v.size();
  size_t capacity = 16;
  while (capacity < 2 * most) capacity *= 2;  // at most half full: short probe runs
  slots_.assign(capacity, 0);
  for (size_t m = 0; m < members_; ++m) {
    for (size_t id = 0; id < vocabularies[m].size(); ++id) {
      const std::string& word = vocabularies[m][id];
      if (word.empty()) continue;
      uint32_t hash = fasttext_hash(word);
      size_t entry = find(word, hash);
      if (entry == SIZE_MAX) entry = new_entry(word, hash);
      ids_[entry * members_ + m] = static_cast<int32_t>(id);
    }
  }
}

size_t WordTable::find(const std::string& word, uint32_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t s = hash & mask; slots_[s] != 0; s = (s + 1) & mask) {
    const Word& w = words_[slots_[s] - 1];
    if (w.hash == hash && w.text == word) return slots_[s] - 1;
  }
  return SIZE_MAX;
}

size_t WordTable::new_entry(const std::string& word, uint32_t hash) {
  const size_t mask = slots_.size() - 1;
  size_t s = hash & mask;
  while (slots_[s] != 0) s = (s + 1) & mask;
  words_.push_back({word, hash});
  ids_.resize(words_.size() * members_, -1);
  slots_[s] = static_cast<uint32_t>(words_.size());
  return words_.size() - 1;
}

std::vector<std::vector<int32_t>> WordTable::ids(const Tokens& tokens,
                                                 const std::vector<TokenSpan>& skipped) const {
  std::vector<std::vector<int32_t>> out(members_);
  for (auto& ids : out) ids.reserve(tokens.words.size());
  if (skipped.size() > members_) {
    throw Error("word table: skipped tokens given for " + std::to_string(skipped.size()) + " members of " +
                std::to_string(members_));
  }
  for (size_t i = 0; i < tokens.words.size(); ++i) {
    size_t entry = find(tokens.words[i], tokens.hashes[i]);
    if (entry == SIZE_MAX) continue;
    const int32_t* row = &ids_[entry * members_];
    for (size_t m = 0; m < members_; ++m) {
      if (row[m] >= 0 && !(m < skipped.size() && skipped[m].contains(i))) out[m].push_back(row[m]);
    }
  }
  return out;
}

}  // namespace faultline::model
