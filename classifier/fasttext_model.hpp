// A fastText supervised model over normalised documents, saved with a checksum so that a damaged file
// is reported as such instead of crashing the loader.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fasttext {
class FastText;
}

namespace faultline::classifier {

struct FastTextParams {
  int epoch = 30;
  double lr = 0.5;
  int word_ngrams = 2;
  int dim = 10;
  int seed = 7;

  std::string describe() const;
};

class FastTextModel {
 public:
  FastTextModel();
  ~FastTextModel();
  FastTextModel(FastTextModel&&) noexcept;
  FastTextModel& operator=(FastTextModel&&) noexcept;

  // `documents` are normalised texts (normalize_for_fasttext); labels are category ids. Single-threaded
  // with a fixed seed, so the same data and parameters give the same model.
  static FastTextModel train(const std::vector<std::string>& documents, const std::vector<std::string>& labels,
                             const FastTextParams& params);
  static FastTextModel load(const std::string& path);
  void save(const std::string& path) const;

  // Probability of every label the model knows (they sum to 1).
  std::map<std::string, double> predict(const std::string& document) const;
  std::vector<std::string> labels() const;

 private:
  std::unique_ptr<fasttext::FastText> model_;
};

}  // namespace faultline::classifier
