#include "classifier/model/fasttext_model.hpp"

#include <fasttext/fasttext.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "classifier/model/fasttext_training.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/fnv1a.hpp"
#include "common/text_file.hpp"

namespace faultline::model {

namespace {

const char* const kLabelPrefix = "__label__";
const char* const kMagic = "faultline-fasttext-v1";
// fastText's own file header (FASTTEXT_FILEFORMAT_MAGIC_INT32 and FASTTEXT_VERSION of libfasttext 0.9).
constexpr int32_t kFastTextMagic = 793712314;
constexpr int32_t kFastTextVersion = 12;

// A file removed when it goes out of scope.
struct ScratchFile {
  std::string path;
  ScratchFile() {
    path = (std::filesystem::temp_directory_path() / ("faultline-ft-" + std::to_string(getpid()) + "-" +
                                                      std::to_string(reinterpret_cast<uintptr_t>(this))))
               .string();
  }
  ~ScratchFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    std::filesystem::remove(path + ".bin", ec);
  }
};

// The sequence of fastText's saveModel, into memory: saveModel writes a file without checking a single
// write, so a full disk would leave a cut model that still carries a matching checksum.
std::string bytes_of(const fasttext::FastText& model) {
  std::ostringstream out(std::ios::binary);
  auto write_value = [&](const auto& value) {
    out.write(reinterpret_cast<const char*>(&value), sizeof value);
  };
  write_value(kFastTextMagic);
  write_value(kFastTextVersion);
  fasttext::Args args = model.getArgs();
  args.save(out);
  model.getDictionary()->save(out);
  write_value(model.isQuant());
  model.getInputMatrix()->save(out);
  write_value(args.qout);
  model.getOutputMatrix()->save(out);
  return out.str();
}

}  // namespace

std::string FastTextParams::describe() const {
  std::ostringstream s;
  s << "epoch=" << epoch << " lr=" << lr << " wordNgrams=" << word_ngrams << " dim=" << dim
    << " seed=" << seed;
  return s.str();
}

FastTextModel::FastTextModel() = default;
FastTextModel::~FastTextModel() = default;
FastTextModel::FastTextModel(FastTextModel&&) noexcept = default;
FastTextModel& FastTextModel::operator=(FastTextModel&&) noexcept = default;

FastTextModel FastTextModel::train(const std::vector<std::string>& documents,
                                   const std::vector<std::string>& labels, const FastTextParams& params) {
  if (documents.empty()) throw Error("fastText: no training documents");
  ScratchFile input;
  {
    std::ofstream out(input.path);
    for (size_t i = 0; i < documents.size(); ++i)
      out << kLabelPrefix << labels[i] << ' ' << documents[i] << '\n';
    // A cut training file would train a model on part of the labels without a word.
    if (!out.flush()) throw Error(input.path + ": cannot write fastText's training input (disk full?)");
  }
  fasttext::Args args;
  args.input = input.path;
  args.model = fasttext::model_name::sup;
  args.loss = fasttext::loss_name::softmax;
  args.minCount = 1;
  args.minn = 0;
  args.maxn = 0;
  args.epoch = params.epoch;
  args.lr = params.lr;
  args.wordNgrams = params.word_ngrams;
  args.dim = params.dim;
  args.bucket = params.word_ngrams > 1 ? 50000 : 0;  // small corpora need few n-gram buckets
  args.thread = 1;
  args.seed = params.seed;
  args.verbose = 0;
  std::string bytes;
  try {
    train_supervised(args, [&](const fasttext::FastText& trained) { bytes = bytes_of(trained); });
  } catch (const std::exception& e) {
    throw Error(std::string("fastText training failed: ") + e.what());
  }
  // Read back from its bytes, the model is a plain fastText model, as one loaded from a file is.
  return from_fasttext_bytes(bytes, "the model just trained");
}

std::string FastTextModel::fasttext_bytes() const { return bytes_of(*model_); }

void FastTextModel::save(const std::string& path) const {
  std::string payload = fasttext_bytes();
  std::ostringstream header;
  header << kMagic << ' ' << std::hex << common::fnv1a(payload) << std::dec << ' ' << payload.size() << '\n';
  common::write_file_atomically(path, header.str() + payload);
}

FastTextModel FastTextModel::load(const std::string& path) {
  std::string data = common::read_text_file(path);
  auto newline = data.find('\n');
  std::istringstream header(data.substr(0, newline == std::string::npos ? 0 : newline));
  std::string magic;
  uint64_t checksum = 0;
  size_t size = 0;
  header >> magic >> std::hex >> checksum >> std::dec >> size;
  if (newline == std::string::npos || magic != kMagic) {
    throw Error(path + ": not a faultline model file (retrain with 'faultline train')");
  }
  std::string payload = data.substr(newline + 1);
  if (payload.size() != size || common::fnv1a(payload) != checksum) {
    throw Error(path +
                ": the model file is damaged (size or checksum mismatch); retrain with 'faultline train'");
  }
  return from_fasttext_bytes(payload, path);
}

FastTextModel FastTextModel::from_fasttext_bytes(const std::string& bytes, const std::string& origin) {
  FastTextModel m;
  m.model_ = std::make_unique<fasttext::FastText>();
  std::istringstream in(bytes);
  try {
    // loadModel(istream) expects the stream past fastText's own magic number and version (two int32),
    // which loadModel(filename) checks itself; check them here the same way.
    int32_t magic_number = 0, version = 0;
    in.read(reinterpret_cast<char*>(&magic_number), sizeof magic_number);
    in.read(reinterpret_cast<char*>(&version), sizeof version);
    if (!in || magic_number != kFastTextMagic || version > kFastTextVersion)
      throw std::invalid_argument("not a fastText model");
    m.model_->loadModel(in);
    m.cache_model();
  } catch (const std::exception& e) {
    throw Error(origin + ": fastText could not read the model: " + e.what());
  }
  return m;
}

void FastTextModel::cache_model() {
  const fasttext::Args args = model_->getArgs();
  // probabilities() computes fastText's softmax; faultline trains no other kind.
  if (args.loss != fasttext::loss_name::softmax || model_->isQuant())
    throw std::invalid_argument("not an unquantised softmax model (retrain with 'faultline train')");
  auto dict = model_->getDictionary();
  const size_t prefix = std::char_traits<char>::length(kLabelPrefix);
  label_names_.clear();
  for (int32_t i = 0; i < dict->nlabels(); ++i) label_names_.push_back(dict->getLabel(i).substr(prefix));
  input_ = model_->getInputMatrix();
  output_ = model_->getOutputMatrix();
  nwords_ = dict->nwords();
  word_ngrams_ = args.wordNgrams;
  bucket_ = args.bucket;
  // probabilities() reads the matrices by raw pointer: their shapes must be what the dictionary says.
  if (label_names_.empty() || input_->rows() != static_cast<int64_t>(nwords_) + bucket_ ||
      output_->rows() != static_cast<int64_t>(label_names_.size()) || output_->cols() != input_->cols())
    throw std::invalid_argument("matrix shapes do not match the dictionary (retrain with 'faultline train')");
}

uint32_t fasttext_hash(std::string_view word) {
  uint32_t h = 2166136261u;
  for (char c : word) {
    h ^= static_cast<uint32_t>(static_cast<int8_t>(c));
    h *= 16777619u;
  }
  return h;
}

const std::string& end_of_line_token() {
  static const std::string token = fasttext::Dictionary::EOS;
  return token;
}

Tokens tokenize(const std::string& normalized_document) {
  Tokens t;
  const size_t most =
      static_cast<size_t>(std::count(normalized_document.begin(), normalized_document.end(), ' ')) + 2;
  t.words.reserve(most);
  t.hashes.reserve(most);
  for_each_token(normalized_document, [&](std::string_view word) {
    t.words.emplace_back(word);
    t.hashes.push_back(fasttext_hash(word));
  });
  t.words.push_back(end_of_line_token());  // what fastText reads at the end of a line
  t.hashes.push_back(fasttext_hash(t.words.back()));
  return t;
}

size_t token_count(std::string_view text) {
  size_t n = 0;
  for_each_token(text, [&](std::string_view) { ++n; });
  return n;
}

std::vector<std::string> FastTextModel::vocabulary() const {
  auto dict = model_->getDictionary();
  std::vector<std::string> words;
  for (int32_t id = 0; id < dict->nwords(); ++id) words.push_back(dict->getWord(id));
  return words;
}

std::vector<int32_t> FastTextModel::word_ids(const Tokens& tokens, TokenSpan skipped) const {
  auto dict = model_->getDictionary();
  std::vector<int32_t> ids;
  ids.reserve(tokens.words.size());
  for (size_t i = 0; i < tokens.words.size(); ++i) {
    if (skipped.contains(i)) continue;
    int32_t id = dict->getId(tokens.words[i], tokens.hashes[i]);
    if (id >= 0 && dict->getType(id) == fasttext::entry_type::word) ids.push_back(id);
  }
  return ids;
}

std::vector<double> FastTextModel::probabilities(const std::vector<int32_t>& word_ids, const Tokens& tokens,
                                                 TokenSpan skipped) const {
  // The steps of Dictionary::getLine for a supervised model without subwords (minn = maxn = 0): known words
  // by id, every word's hash for the word n-grams, n-gram ids after the vocabulary. Tests check that the
  // result equals predictLine's.
  std::vector<int32_t> line;
  line.reserve(word_ids.size() + tokens.hashes.size() * static_cast<size_t>(word_ngrams_ - 1));
  line.insert(line.end(), word_ids.begin(), word_ids.end());
  if (word_ngrams_ > 1 && bucket_ > 0) {
    // fastText keeps word hashes as int32 and widens them to uint64 with sign extension; so do we.
    auto widen = [](uint32_t hash) {
      return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(hash)));
    };
    std::vector<uint32_t> read;  // the hashes of the tokens read, when some are skipped
    if (skipped.begin < skipped.end) {
      read.reserve(tokens.hashes.size());
      for (size_t i = 0; i < tokens.hashes.size(); ++i) {
        if (!skipped.contains(i)) read.push_back(tokens.hashes[i]);
      }
    }
    const std::vector<uint32_t>& hashes = skipped.begin < skipped.end ? read : tokens.hashes;
    for (size_t i = 0; i < hashes.size(); ++i) {
      uint64_t h = widen(hashes[i]);
      for (size_t j = i + 1; j < hashes.size() && j < i + static_cast<size_t>(word_ngrams_); ++j) {
        h = h * 116049371 + widen(hashes[j]);
        line.push_back(nwords_ + static_cast<int32_t>(h % static_cast<uint64_t>(bucket_)));
      }
    }
  }
  std::vector<double> p(label_names_.size(), 0.0);
  if (line.empty()) return p;  // fastText predicts nothing for a line without a known word
  // fastText's prediction in its own float arithmetic and order, so that the result is the same to the
  // bit (a test compares the two; built without -march, so no fused multiply-add on either side):
  // Model::computeHidden (the mean of the rows), SoftmaxLoss::computeOutput (dot products, then exp in double
  // of the difference to the largest), the log that findKBest keeps (std_log: log of p + 1e-5, back to
  // float), and exp of that float. fastText does the same through a virtual call and two asserted size checks
  // per row, and a State allocated per prediction.
  using fasttext::real;
  const int64_t dim = input_->cols();
  std::vector<real> hidden(static_cast<size_t>(dim), 0.0f);
  for (int32_t id : line) {
    const real* row = input_->data() + static_cast<int64_t>(id) * dim;
    for (int64_t j = 0; j < dim; ++j) hidden[static_cast<size_t>(j)] += row[j];
  }
  const real mean = static_cast<real>(1.0 / static_cast<double>(line.size()));
  for (real& h : hidden) h *= mean;
  std::vector<real> out(p.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const real* row = output_->data() + static_cast<int64_t>(i) * dim;
    real d = 0.0f;
    for (int64_t j = 0; j < dim; ++j) d += row[j] * hidden[static_cast<size_t>(j)];
    if (std::isnan(d)) throw Error("fastText: the model predicts NaN (a damaged model; retrain)");
    out[i] = d;
  }
  real max = out[0], z = 0.0f;
  for (real o : out) max = std::max(o, max);
  for (real& o : out) {
    o = static_cast<real>(std::exp(static_cast<double>(o - max)));
    z += o;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const real log_p = static_cast<real>(std::log(static_cast<double>(out[i] / z) + 1e-5));
    p[i] = std::exp(log_p);  // in float, as fastText's own callers undo its log
  }
  return p;
}

std::map<std::string, double> FastTextModel::predict(const Tokens& tokens, TokenSpan skipped) const {
  std::vector<double> p = probabilities(word_ids(tokens, skipped), tokens, skipped);
  std::map<std::string, double> out;
  for (size_t id = 0; id < p.size(); ++id) out.emplace(label_names_[id], p[id]);
  return out;
}

// The reference path, kept for the test that checks predict() against fastText's own line reader.
std::map<std::string, double> FastTextModel::predict_line(const std::string& document) const {
  std::istringstream in(document + "\n");
  std::vector<std::pair<fasttext::real, std::string>> predictions;
  model_->predictLine(in, predictions, -1, 0.0);
  std::map<std::string, double> out;
  const size_t prefix = std::char_traits<char>::length(kLabelPrefix);
  for (const auto& [p, label] : predictions) out[label.substr(prefix)] = p;
  return out;
}

}  // namespace faultline::model
