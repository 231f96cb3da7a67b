#include "classifier/model/fasttext_training.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace faultline::model {

namespace {

// fastText's Dictionary with a word table sized to the training input instead of 30 million entries.
// Starting from an empty saved dictionary leaves every other field as the stock constructor sets it;
// readFromFile then adds, counts and sorts the words exactly as it always does, and only the slot where a
// word sits in the table differs, never its id.
class SizedDictionary : public fasttext::Dictionary {
 public:
  static constexpr int32_t kStockTableSize = MAX_VOCAB_SIZE;

  SizedDictionary(std::shared_ptr<fasttext::Args> args, size_t table_size)
      : Dictionary(std::move(args), as_stream(std::istringstream(empty_dictionary()))) {
    word2int_.assign(table_size, -1);
  }

  // Once read, the table as small as fastText makes it when it loads a dictionary, which keeps the
  // lookups in cache.
  void compact() {
    word2int_.assign(static_cast<size_t>(std::ceil(size_ / 0.7)), -1);
    for (int32_t i = 0; i < size_; ++i) word2int_[find(words_[i].word)] = i;
  }

 private:
  // What Dictionary::save writes for no words: size, nwords, nlabels (int32), ntokens, and a pruning
  // index size of -1 (int64, "not pruned").
  static std::string empty_dictionary() {
    std::string bytes(3 * sizeof(int32_t) + 2 * sizeof(int64_t), '\0');
    const int64_t not_pruned = -1;
    std::memcpy(bytes.data() + 3 * sizeof(int32_t) + sizeof(int64_t), &not_pruned, sizeof not_pruned);
    return bytes;
  }
  // The temporary stream lives to the end of the constructor call that reads it.
  static std::istream& as_stream(std::istringstream&& in) { return in; }
};

// FastText::train step for step, but with the sized dictionary, and with each line's word and label ids
// read once where trainThread reads them from the file again in every epoch.
class OneThreadTrainer : public fasttext::FastText {
 public:
  void fit(const fasttext::Args& args) {
    if (args.thread != 1 || args.model != fasttext::model_name::sup || !args.pretrainedVectors.empty())
      throw std::invalid_argument(
          "this trainer trains supervised models on one thread, without pretrained vectors");
    args_ = std::make_shared<fasttext::Args>(args);
    std::ifstream in(args_->input);
    if (!in.is_open()) throw std::invalid_argument(args_->input + " cannot be opened for training!");
    // Each distinct word, and the end-of-line word, takes at least one byte of the file: at most half
    // of this table fills.
    // (capped at the stock table's size, which an input of over 15 MB would pass).
    auto dict = std::make_shared<SizedDictionary>(
        args_, std::min<uintmax_t>(2 * std::filesystem::file_size(args_->input) + 1,
                                   SizedDictionary::kStockTableSize));
    dict->readFromFile(in);
    in.close();
    dict->compact();
    dict_ = dict;
    input_ = createRandomMatrix();
    output_ = createTrainOutputMatrix();
    quant_ = false;
    auto loss = createLoss(output_);
    const bool normalize_gradient = args_->model == fasttext::model_name::sup;
    model_ = std::make_shared<fasttext::Model>(input_, output_, loss, normalize_gradient);
    train_on(read_lines());
  }

 private:
  struct Line {
    int32_t tokens = 0;  // what getLine counted, which paces the learning rate
    std::vector<int32_t> words, labels;
  };

  // One turn through the file as trainThread's getLine calls see it, up to the call that meets the end of
  // the file (a call that reads nothing when the file ends with a newline); the next call starts over.
  std::vector<Line> read_lines() const {
    std::ifstream in(args_->input);
    if (!in.is_open()) throw std::invalid_argument(args_->input + " cannot be opened for training!");
    std::vector<Line> lines;
    int64_t tokens = 0;
    do {
      Line line;
      line.tokens = dict_->getLine(in, line.words, line.labels);
      tokens += line.tokens;
      lines.push_back(std::move(line));
    } while (!in.eof());
    // The turn must read what the dictionary counted, or the epochs would never end.
    if (tokens != dict_->ntokens()) throw std::runtime_error(args_->input + " changed while training");
    return lines;
  }

  // trainThread(0) and what startThreads sets up around it, with the lines taken in turn from memory.
  void train_on(const std::vector<Line>& lines) {
    tokenCount_ = 0;
    loss_ = -1;
    trainException_ = nullptr;
    fasttext::Model::State state(args_->dim, static_cast<int32_t>(output_->size(0)), args_->seed);
    const int64_t ntokens = dict_->ntokens();
    int64_t local_tokens = 0;
    for (size_t next = 0; keepTraining(ntokens); next = (next + 1) % lines.size()) {
      fasttext::real progress = fasttext::real(tokenCount_) / (args_->epoch * ntokens);
      fasttext::real lr = args_->lr * (1.0 - progress);
      local_tokens += lines[next].tokens;
      supervised(state, lr, lines[next].words, lines[next].labels);
      if (local_tokens > args_->lrUpdateRate) {
        tokenCount_ += local_tokens;
        local_tokens = 0;
      }
    }
  }
};

}  // namespace

void train_supervised(const fasttext::Args& args, const std::function<void(const fasttext::FastText&)>& use) {
  OneThreadTrainer trainer;
  trainer.fit(args);
  use(trainer);
}

}  // namespace faultline::model
