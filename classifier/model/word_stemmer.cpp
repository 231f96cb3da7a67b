#include "classifier/model/word_stemmer.hpp"

#include <libstemmer.h>

#include <functional>
#include <memory>
#include <unordered_map>

#include "common/error.hpp"

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
  MemoisedStemmer() : stemmer_(sb_stemmer_new("english", "UTF_8")) {
    if (!stemmer_) throw Error("the Snowball English stemmer could not be created (out of memory?)");
  }

  std::string_view stem(std::string_view word) {
    // Snowball runs a few hundred nanoseconds a word; the same few thousand words recur in every issue.
    if (auto it = memo_.find(word); it != memo_.end()) return it->second;
    const sb_symbol* s = sb_stemmer_stem(stemmer_.get(), reinterpret_cast<const sb_symbol*>(word.data()),
                                         static_cast<int>(word.size()));
    if (!s) throw Error("the Snowball stemmer ran out of memory");
    if (memo_.size() >= kMemoWords) memo_.clear();
    std::string stemmed(reinterpret_cast<const char*>(s),
                        static_cast<size_t>(sb_stemmer_length(stemmer_.get())));
    return memo_.emplace(std::string(word), std::move(stemmed)).first->second;
  }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unique_ptr<sb_stemmer, StemmerDeleter> stemmer_;
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> memo_;
};

bool is_lowercase_word(std::string_view word) {
  if (word.empty() || word.size() > kLongestWord) return false;
  for (char c : word) {
    if (c < 'a' || c > 'z') return false;
  }
  return true;
}

}  // namespace

std::string_view english_stem(std::string_view word) {
  if (!is_lowercase_word(word)) return word;
  thread_local MemoisedStemmer stemmer;
  return stemmer.stem(word);
}

}  // namespace faultline::model
