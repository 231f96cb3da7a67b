#include "classifier/model/word_stemmer.hpp"

#include <libstemmer.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "common/error.hpp"
#include "common/fnv1a.hpp"

namespace faultline::model {

namespace {

// Words longer than this are left as they are: no English word is, and the memo stays small.
constexpr size_t kLongestWord = 40;
// The memo is emptied when it reaches this many words (the 432 bundled issues hold about 4,100 distinct
// ones), so a stream of distinct junk cannot grow it past a few MiB a thread.
constexpr size_t kMemoWords = 1 << 14;

struct StemmerDeleter {
  void operator()(sb_stemmer* s) const { sb_stemmer_delete(s); }
};

class MemoisedStemmer {
 public:
  MemoisedStemmer() : stemmer_(sb_stemmer_new("english", "UTF_8")), slots_(kSlots) {
    if (!stemmer_) throw Error("the Snowball English stemmer could not be created (out of memory?)");
  }

  std::string_view stem(std::string_view word) {
    // Snowball runs a few hundred nanoseconds a word; the same few thousand words recur in every issue. An
    // open-addressed table of a power-of-two size: a node-based map's bucket division and pointer chasing
    // were most of the time spent here.
    const uint64_t hash = common::fnv1a(word);
    size_t s = hash & (kSlots - 1);
    for (; slots_[s] != 0; s = (s + 1) & (kSlots - 1)) {
      const Entry& e = entries_[slots_[s] - 1];
      if (e.hash == hash && e.word == word) return e.stem;
    }
    const sb_symbol* stemmed = sb_stemmer_stem(
        stemmer_.get(), reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
    if (!stemmed) throw Error("the Snowball stemmer ran out of memory");
    if (entries_.size() == kMemoWords) {
      entries_.clear();
      std::fill(slots_.begin(), slots_.end(), 0);
      s = hash & (kSlots - 1);
    }
    entries_.push_back({hash, std::string(word),
                        std::string(reinterpret_cast<const char*>(stemmed),
                                    static_cast<size_t>(sb_stemmer_length(stemmer_.get())))});
    slots_[s] = static_cast<uint32_t>(entries_.size());
    return entries_.back().stem;
  }

 private:
  // Twice the memo's words: probe runs stay short when it is full.
  static constexpr size_t kSlots = 2 * kMemoWords;
  struct Entry {
    uint64_t hash;
    std::string word, stem;
  };
  std::unique_ptr<sb_stemmer, StemmerDeleter> stemmer_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> slots_;  // entry + 1, 0 when free
};

bool is_lowercase_word(std::string_view word) {
  if (word.size() > kLongestWord) return false;
  for (char c : word) {
    if (c < 'a' || c > 'z') return false;
  }
  return true;
}

}  // namespace

std::string_view english_stem(std::string_view word) {
  // Snowball's English stemmer leaves a word of one or two letters as it is ("not hop 3"), so "a", "in",
  // "is" and "of", a good part of every issue's words, skip the memo.
  if (word.size() < 3 || !is_lowercase_word(word)) return word;
  thread_local MemoisedStemmer stemmer;
  return stemmer.stem(word);
}

}  // namespace faultline::model
