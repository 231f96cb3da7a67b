#include "classifier/fasttext_model.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fasttext/fasttext.h>

#include "datasets/csv.hpp"
#include "taxonomy/error.hpp"

namespace faultline::classifier {

namespace {

const char* const kLabelPrefix = "__label__";
const char* const kMagic = "faultline-fasttext-v1";
// fastText's own file header (FASTTEXT_FILEFORMAT_MAGIC_INT32 and FASTTEXT_VERSION of libfasttext 0.9).
constexpr int32_t kFastTextMagic = 793712314;
constexpr int32_t kFastTextVersion = 12;

uint64_t fnv1a(const std::string& data) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : data) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A file removed when it goes out of scope.
struct ScratchFile {
  std::string path;
  ScratchFile() {
    path = (std::filesystem::temp_directory_path() /
            ("faultline-ft-" + std::to_string(getpid()) + "-" + std::to_string(reinterpret_cast<uintptr_t>(this))))
               .string();
  }
  ~ScratchFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    std::filesystem::remove(path + ".bin", ec);
  }
};

}  // namespace

std::string FastTextParams::describe() const {
  std::ostringstream s;
  s << "epoch=" << epoch << " lr=" << lr << " wordNgrams=" << word_ngrams << " dim=" << dim << " seed=" << seed;
  return s.str();
}

FastTextModel::FastTextModel() = default;
FastTextModel::~FastTextModel() = default;
FastTextModel::FastTextModel(FastTextModel&&) noexcept = default;
FastTextModel& FastTextModel::operator=(FastTextModel&&) noexcept = default;

FastTextModel FastTextModel::train(const std::vector<std::string>& documents, const std::vector<std::string>& labels,
                                   const FastTextParams& params) {
  if (documents.empty()) throw Error("fastText: no training documents");
  ScratchFile input;
  {
    std::ofstream out(input.path);
    for (size_t i = 0; i < documents.size(); ++i) out << kLabelPrefix << labels[i] << ' ' << documents[i] << '\n';
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
  FastTextModel m;
  m.model_ = std::make_unique<fasttext::FastText>();
  try {
    m.model_->train(args);
  } catch (const std::exception& e) {
    throw Error(std::string("fastText training failed: ") + e.what());
  }
  return m;
}

void FastTextModel::save(const std::string& path) const {
  ScratchFile raw;
  model_->saveModel(raw.path);
  std::string payload = datasets::read_text_file(raw.path);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(path + ": cannot write the model file");
  out << kMagic << ' ' << std::hex << fnv1a(payload) << std::dec << ' ' << payload.size() << '\n' << payload;
}

FastTextModel FastTextModel::load(const std::string& path) {
  std::string data = datasets::read_text_file(path);
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
  if (payload.size() != size || fnv1a(payload) != checksum) {
    throw Error(path + ": the model file is damaged (size or checksum mismatch); retrain with 'faultline train'");
  }
  FastTextModel m;
  m.model_ = std::make_unique<fasttext::FastText>();
  std::istringstream in(payload);
  try {
    // loadModel(istream) expects the stream past fastText's own magic number and version (two int32),
    // which loadModel(filename) checks itself; check them here the same way.
    int32_t magic_number = 0, version = 0;
    in.read(reinterpret_cast<char*>(&magic_number), sizeof magic_number);
    in.read(reinterpret_cast<char*>(&version), sizeof version);
    if (!in || magic_number != kFastTextMagic || version > kFastTextVersion) throw std::invalid_argument("not a fastText model");
    m.model_->loadModel(in);
  } catch (const std::exception& e) {
    throw Error(path + ": fastText could not read the model: " + e.what());
  }
  return m;
}

std::map<std::string, double> FastTextModel::predict(const std::string& document) const {
  std::istringstream in(document + "\n");
  std::vector<std::pair<fasttext::real, std::string>> predictions;
  model_->predictLine(in, predictions, -1, 0.0);
  std::map<std::string, double> out;
  const size_t prefix = std::char_traits<char>::length(kLabelPrefix);
  for (const auto& [p, label] : predictions) out[label.substr(prefix)] = p;
  return out;
}

std::vector<std::string> FastTextModel::labels() const {
  std::vector<std::string> out;
  auto dict = model_->getDictionary();
  const size_t prefix = std::char_traits<char>::length(kLabelPrefix);
  for (int32_t i = 0; i < dict->nlabels(); ++i) out.push_back(dict->getLabel(i).substr(prefix));
  return out;
}

}  // namespace faultline::classifier
