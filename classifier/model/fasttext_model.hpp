// A fastText supervised model over normalised documents, saved with a checksum so that a damaged file
// is reported as such instead of crashing the loader.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fasttext {
class DenseMatrix;
class FastText;
}  // namespace fasttext

namespace faultline::model {

struct FastTextParams {
  int epoch = 30;
  double lr = 0.5;
  int word_ngrams = 2;
  int dim = 10;
  int seed = 7;

  std::string describe() const;
};

// A normalised document split into fastText's tokens (with the end-of-line token), each with fastText's
// hash: computed once per issue and shared by every fastText model and the neighbour index.
struct Tokens {
  std::vector<std::string> words;
  std::vector<uint32_t> hashes;
};
Tokens tokenize(const std::string& normalized_document);
// Calls f(word) for each word tokenize() finds in `text`, in order (the end-of-line token aside).
template <class F>
void for_each_token(std::string_view text, F&& f) {
  while (!text.empty()) {
    const std::string_view word = text.substr(0, text.find(' '));
    if (!word.empty()) f(word);
    text.remove_prefix(std::min(text.size(), word.size() + 1));
  }
}
// How many words tokenize() finds in `text`, the end-of-line token not counted.
size_t token_count(std::string_view text);
// Positions [begin, end) in a Tokens: a part of a document that some members do not read.
struct TokenSpan {
  size_t begin = 0, end = 0;
  bool contains(size_t i) const { return i >= begin && i < end; }
};
// fastText's hash of a word (32-bit FNV-1a over its bytes taken as signed chars).
uint32_t fasttext_hash(std::string_view word);
// The token fastText reads at the end of every line: the last of every Tokens.
const std::string& end_of_line_token();

class FastTextModel {
 public:
  FastTextModel();
  ~FastTextModel();
  FastTextModel(FastTextModel&&) noexcept;
  FastTextModel& operator=(FastTextModel&&) noexcept;

  // `documents` are normalised texts (normalize_for_fasttext); labels are category ids. Single-threaded
  // with a fixed seed, so the same data and parameters give the same model.
  static FastTextModel train(const std::vector<std::string>& documents,
                             const std::vector<std::string>& labels, const FastTextParams& params);
  static FastTextModel load(const std::string& path);
  // A model from what fastText's saveModel writes (fasttext_bytes); errors name `origin`.
  static FastTextModel from_fasttext_bytes(const std::string& bytes, const std::string& origin);
  void save(const std::string& path) const;
  // What fastText's saveModel would write, built in memory (save() adds faultline's header and checksum).
  std::string fasttext_bytes() const;

  // Probability of every label the model knows (fastText's: each is exp(log(p + 1e-5)), all 0 for a line
  // without a known word). Computes what fastText's predictLine computes, from tokens hashed once (see
  // tokenize), without re-reading the text per model.
  // `skipped` tokens are not read, as if the document were without them.
  std::map<std::string, double> predict(const Tokens& tokens, TokenSpan skipped = {}) const;
  std::map<std::string, double> predict(const std::string& document) const {
    return predict(tokenize(document));
  }
  // The same in parts: the ids of the tokens the model knows (from its dictionary, or a WordTable of
  // vocabulary()), then the probability of every label by its index in labels().
  std::vector<int32_t> word_ids(const Tokens& tokens, TokenSpan skipped = {}) const;
  std::vector<double> probabilities(const std::vector<int32_t>& word_ids, const Tokens& tokens,
                                    TokenSpan skipped = {}) const;
  const std::vector<std::string>& labels() const { return label_names_; }
  // The model's words by id.
  std::vector<std::string> vocabulary() const;
  // fastText's own predictLine on the text: slower, the reference predict() is tested against.
  std::map<std::string, double> predict_line(const std::string& document) const;

 private:
  void cache_model();

  std::unique_ptr<fasttext::FastText> model_;
  std::vector<std::string> label_names_;  // by fastText label id, without the __label__ prefix
  // Read once from the model, as probabilities() runs for every issue and fastText's getters copy.
  std::shared_ptr<const fasttext::DenseMatrix> input_, output_;
  int32_t nwords_ = 0;
  int word_ngrams_ = 1, bucket_ = 0;
};

}  // namespace faultline::model
