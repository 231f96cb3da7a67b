#include <fasttext/fasttext.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "classifier/model/fasttext_model.hpp"
#include "classifier/model/rules.hpp"
#include "classifier/model/text_features.hpp"
#include "common/error.hpp"
#include "common/fnv1a.hpp"
#include "common/text_file.hpp"
#include "datasets/store/snapshot.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::model;

namespace {

// The bundled corpus, normalised, labeled by scope: real vocabulary, real lengths.
void corpus(std::vector<std::string>* docs, std::vector<std::string>* labels) {
  for (const auto& r : faultline::datasets::read_snapshot(std::string(FAULTLINE_SOURCE_DIR) +
                                                          "/datasets/snapshot/issues.jsonl")) {
    docs->push_back(normalize_for_fasttext(document_text(r)));
    labels->push_back(r.scope.value_or("in"));
  }
}

// A model fastText itself trains on `train` and saves: the bytes its own saveModel writes.
std::string saved_by_fasttext(const faultline::testing::TempDir& dir, const std::string& train,
                              fasttext::loss_name loss, int epoch, int dim) {
  fasttext::Args args;
  args.input = train;
  args.model = fasttext::model_name::sup;
  args.loss = loss;
  args.minCount = 1;
  args.epoch = epoch;
  args.dim = dim;
  args.thread = 1;
  args.verbose = 0;
  fasttext::FastText reference;
  reference.train(args);
  reference.saveModel(dir.file("reference.bin"));
  return faultline::common::read_text_file(dir.file("reference.bin"));
}

// fastText's bytes as a faultline model file: the header line (magic, checksum, size), then the bytes.
std::string in_faultline_file(const std::string& bytes) {
  std::ostringstream wrapped;
  wrapped << "faultline-fasttext-v1 " << std::hex << faultline::common::fnv1a(bytes) << std::dec << ' '
          << bytes.size() << '\n'
          << bytes;
  return wrapped.str();
}

// A model of `docs` trained briefly (5 epochs), with word n-grams up to `ngrams`.
FastTextModel quick_model(const std::vector<std::string>& docs, const std::vector<std::string>& labels,
                          int ngrams) {
  FastTextParams p;
  p.word_ngrams = ngrams;
  p.epoch = 5;
  return FastTextModel::train(docs, labels, p);
}

}  // namespace

TEST(FastText, SharedTokenPredictionEqualsFastTextsOwnLineReader) {
  // predict() re-implements the word-id path of fastText's getLine so that an issue is tokenised once for
  // three models; fastText's predictLine is the independent reference, with and without word bigrams.
  std::vector<std::string> docs, labels;
  corpus(&docs, &labels);
  for (int ngrams : {1, 2}) {
    auto model = quick_model(docs, labels, ngrams);
    double worst = 0;
    for (const auto& doc : docs) {
      auto fast = model.predict(tokenize(doc));
      auto reference = model.predict_line(doc);
      ASSERT_EQ(fast.size(), reference.size());
      for (const auto& [label, prob] : reference) worst = std::fmax(worst, std::fabs(fast[label] - prob));
    }
    EXPECT_LT(worst, 1e-6) << "wordNgrams " << ngrams;
  }
}

TEST(FastText, SkippedTokensAreReadAsIfTheDocumentWereWithoutThem) {
  // The reference is the same model on the document written without the skipped words (the middle third
  // of each): the same ids, and with bigrams the same pairs, the one across the gap included; and
  // fastText's own predictLine on that document.
  std::vector<std::string> docs, labels;
  corpus(&docs, &labels);
  for (int ngrams : {1, 2}) {
    auto model = quick_model(docs, labels, ngrams);
    size_t differing = 0, moved = 0;
    for (const auto& doc : docs) {
      const Tokens tokens = tokenize(doc);
      const size_t words = tokens.words.size() - 1;  // the end-of-line token aside
      const TokenSpan skipped{words / 3, 2 * words / 3};
      std::string shorter;
      for (size_t i = 0; i < words; ++i) {
        if (!skipped.contains(i)) shorter += (shorter.empty() ? "" : " ") + tokens.words[i];
      }
      const Tokens rest = tokenize(shorter);
      const auto expected = model.probabilities(model.word_ids(rest), rest);
      const auto read = model.probabilities(model.word_ids(tokens, skipped), tokens, skipped);
      differing += read != expected;
      // And fastText's own line reader on the shorter text (to 1e-6, as above).
      const auto by_fasttext = model.predict_line(shorter);
      for (size_t l = 0; l < read.size(); ++l) EXPECT_NEAR(read[l], by_fasttext.at(model.labels()[l]), 1e-6);
      moved += model.probabilities(model.word_ids(tokens), tokens) != expected;
    }
    EXPECT_EQ(differing, 0u) << "of " << docs.size() << " documents, wordNgrams " << ngrams;
    EXPECT_GT(moved, docs.size() / 2) << "the skipped words change most predictions";
  }
}

TEST(FastText, TokensEndWithTheEndOfLineTokenAndHashLikeFastText) {
  Tokens t = tokenize("illegal memory access");
  EXPECT_EQ(t.words, (std::vector<std::string>{"illegal", "memory", "access", "</s>"}));
  // 32-bit FNV-1a of "a": (2166136261 ^ 97) * 16777619 mod 2^32 = 3826002220.
  EXPECT_EQ(tokenize("a").hashes[0], 3826002220u);
}

TEST(FastText, InMemoryModelBytesEqualWhatFastTextsOwnSaveModelWrites) {
  // fastText's saveModel is the reference writer: a model it saved, wrapped in faultline's header and
  // loaded, must serialise back to the very same bytes.
  faultline::testing::TempDir dir;
  std::string train = dir.write("train.txt",
                                "__label__hang training hangs in allreduce\n"
                                "__label__crash illegal memory access in the kernel\n"
                                "__label__hang deadlock at the barrier\n");
  std::string bytes = saved_by_fasttext(dir, train, fasttext::loss_name::softmax, 2, 8);
  auto model = FastTextModel::load(dir.write("model.ftz", in_faultline_file(bytes)));
  EXPECT_EQ(model.fasttext_bytes(), bytes);
}

TEST(FastText, TrainingWritesTheModelFastTextsOwnTrainWrites) {
  // FastTextModel::train replaces fastText's 30-million-entry word table by one sized to the input; the
  // reference is fastText's own train on the same file with the same arguments. The corpus labeled by
  // repository has many words and labels of equal count, so a dictionary that sorted them in another
  // order, or an argument that differed, would change the bytes.
  std::vector<std::string> docs, labels;
  for (const auto& r : faultline::datasets::read_snapshot(std::string(FAULTLINE_SOURCE_DIR) +
                                                          "/datasets/snapshot/issues.jsonl")) {
    docs.push_back(normalize_for_fasttext(document_text(r)));
    labels.push_back(r.repo.substr(r.repo.find('/') + 1));
  }
  faultline::testing::TempDir dir;
  std::string file;
  for (size_t i = 0; i < docs.size(); ++i) file += "__label__" + labels[i] + ' ' + docs[i] + '\n';
  const std::string input = dir.write("train.txt", file);
  for (int ngrams : {1, 2}) {
    FastTextParams p;
    p.word_ngrams = ngrams;
    p.epoch = 3;
    fasttext::Args args;
    args.input = input;
    args.model = fasttext::model_name::sup;
    args.loss = fasttext::loss_name::softmax;
    args.minCount = 1;
    args.minn = 0;
    args.maxn = 0;
    args.epoch = p.epoch;
    args.lr = p.lr;
    args.wordNgrams = p.word_ngrams;
    args.dim = p.dim;
    args.bucket = ngrams > 1 ? 50000 : 0;
    args.thread = 1;
    args.seed = p.seed;
    args.verbose = 0;
    fasttext::FastText reference;
    reference.train(args);
    const std::string saved = dir.file("reference" + std::to_string(ngrams) + ".bin");
    reference.saveModel(saved);
    EXPECT_TRUE(FastTextModel::train(docs, labels, p).fasttext_bytes() ==
                faultline::common::read_text_file(saved))
        << "wordNgrams " << ngrams;
  }
}

TEST(FastText, ProbabilitiesAreFastTextsOwnPredictionToTheBit) {
  // probabilities() redoes fastText's prediction arithmetic without its per-row virtual calls; the
  // reference is fastText's own predict on the ids its own getLine reads, each log probability undone by
  // exp as fastText's callers do. Equal to the bit, with and without word bigrams.
  std::vector<std::string> docs, labels;
  corpus(&docs, &labels);
  for (size_t i = 0; i < docs.size(); ++i) labels[i] += std::to_string(i % 3);  // six classes
  faultline::testing::TempDir dir;
  for (int ngrams : {1, 2}) {
    auto model = quick_model(docs, labels, ngrams);
    fasttext::FastText reference;
    reference.loadModel(dir.write("model" + std::to_string(ngrams) + ".bin", model.fasttext_bytes()));
    size_t differing = 0;
    for (const auto& doc : docs) {
      std::istringstream in(doc + "\n");
      std::vector<int32_t> words, no_labels;
      reference.getDictionary()->getLine(in, words, no_labels);
      fasttext::Predictions predictions;
      reference.predict(-1, words, predictions, 0.0);
      std::vector<double> expected(model.labels().size(), 0.0);
      for (const auto& [log_p, id] : predictions) expected[static_cast<size_t>(id)] = std::exp(log_p);
      Tokens tokens = tokenize(doc);
      differing += model.probabilities(model.word_ids(tokens), tokens) != expected;
    }
    EXPECT_EQ(differing, 0u) << "of " << docs.size() << " documents, wordNgrams " << ngrams;
  }
}

TEST(FastText, AModelOfAnotherLossIsRefusedAtLoad) {
  // probabilities() computes a softmax; a model of another loss would be read wrongly, so load refuses it.
  // With the loss set back to softmax, the same file loads (the trigger removed).
  faultline::testing::TempDir dir;
  std::string train = dir.write("train.txt",
                                "__label__hang training hangs in allreduce\n"
                                "__label__crash illegal memory access in the kernel\n");
  for (auto loss : {fasttext::loss_name::hs, fasttext::loss_name::softmax}) {
    const std::string path =
        dir.write("model.ftz", in_faultline_file(saved_by_fasttext(dir, train, loss, 1, 4)));
    if (loss == fasttext::loss_name::softmax) {
      EXPECT_NO_THROW(FastTextModel::load(path));
    } else {
      EXPECT_THROW(FastTextModel::load(path), faultline::Error);
    }
  }
}
