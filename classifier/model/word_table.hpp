// Every vocabulary of the classifier's members (each fastText model's words, the neighbour index's terms)
// in one hash table, so that a token is looked up once for all of them instead of once per member: the
// lookups were the largest part of classifying an issue.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "classifier/model/fasttext_model.hpp"

namespace faultline::model {

class WordTable {
 public:
  // vocabularies[m][id] is the word member m knows by `id`; an empty word is a gap (no word has that id).
  explicit WordTable(const std::vector<std::vector<std::string>>& vocabularies = {});

  // Member m's ids of the tokens it knows, in the order of `tokens` (repeats kept): ids[m]. Member m does
  // not read the tokens of skipped[m]; a member without an entry in `skipped` reads every token.
  std::vector<std::vector<int32_t>> ids(const Tokens& tokens,
                                        const std::vector<TokenSpan>& skipped = {}) const;
  size_t members() const { return members_; }
  size_t words() const { return words_.size(); }

 private:
  struct Word {
    std::string text;
    uint32_t hash;  // fastText's, as tokenize() computes it
  };
  // The entry of a word, or SIZE_MAX; new_entry adds it when absent.
  size_t find(const std::string& word, uint32_t hash) const;
  size_t new_entry(const std::string& word, uint32_t hash);

  size_t members_ = 0;
  std::vector<Word> words_;
  std::vector<int32_t> ids_;     // words_.size() × members_, -1 where a member does not know the word
  std::vector<uint32_t> slots_;  // open addressing by hash: entry + 1, 0 when free; size a power of two
};

}  // namespace faultline::model
