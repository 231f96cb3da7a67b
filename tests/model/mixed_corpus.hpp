// A small labeled corpus for tests that need a trained classifier whose probabilities are not all 0 or 1:
// three classes, each issue drawing words from its own class's vocabulary, from a shared one and a few from
// another class's, by a seeded draw (the same corpus every run).
#pragma once

#include <string>
#include <vector>

#include "classifier/model/issue_classifier.hpp"
#include "common/seeded_random.hpp"

namespace faultline::testing {

inline std::vector<model::LabeledIssue> mixed_corpus(int per_class = 20) {
  const std::vector<std::vector<std::string>> vocabulary{
      {"deadlock", "barrier", "hangs", "stuck", "warps", "allreduce", "waits", "forever", "semaphore",
       "spin"},
      {"illegal", "memory", "access", "segfault", "bounds", "misaligned", "pointer", "overflow", "corrupt",
       "address"},
      {"build", "nvcc", "compile", "gencode", "cmake", "linker", "wheel", "fatal", "toolchain", "install"}};
  const std::vector<std::string> shared{"kernel", "cuda",    "version", "gpu",   "error",
                                        "when",   "running", "model",   "batch", "please"};
  const char* labels[3][2] = {{"hang", "concurrency_error"},
                              {"crash", "improper_memory_access"},
                              {"build_failure", "build_misconfiguration"}};
  std::vector<model::LabeledIssue> out;
  for (int c = 0; c < 3; ++c) {
    for (int i = 0; i < per_class; ++i) {
      const uint64_t seed = static_cast<uint64_t>(c * 1000 + i);
      auto words = [&](const std::vector<std::string>& from, size_t k, uint64_t salt) {
        std::string text;
        for (size_t w : common::seeded_choice(from.size(), k, seed * 31 + salt)) text += from[w] + " ";
        return text;
      };
      datasets::IssueRecord r;
      r.repo = "o/r";
      r.number = c * per_class + i + 1;
      r.url = "https://github.com/o/r/issues/" + std::to_string(r.number);
      r.state = "closed";
      r.title = words(vocabulary[c], 2, 1);
      r.body =
          words(vocabulary[c], 4, 2) + words(shared, 4, 3) + words(vocabulary[(c + 1 + i % 2) % 3], 2, 4);
      out.push_back({r, labels[c][0], labels[c][1]});
    }
  }
  return out;
}

}  // namespace faultline::testing
