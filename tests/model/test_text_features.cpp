// The classifier's document must not change when its code is made faster: the models were trained on it.
// The reference below is the implementation as it was before (document_text and normalize_for_fasttext of
// a0aaca3, verbatim but for names), a second implementation to compare against.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "classifier/model/issue_classifier.hpp"
#include "classifier/model/text_features.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/snapshot.hpp"
#include "tests/temp_dir.hpp"

namespace faultline::model {
namespace {

std::string reference_document_text(const datasets::IssueRecord& issue) {
  std::string doc = issue.title + "\n" + issue.body + "\n" + issue.env + "\n";
  for (const auto& line : issue.error_lines) doc += line + "\n";
  doc += issue.discussion;
  return doc;
}

bool reference_is_word_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '+' || c >= 0x80;
}

const std::string& reference_mask(const std::string& token) {
  static const std::string kHex = "<hex>", kPath = "<path>", kNum = "<num>";
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) return kHex;
  if (token.find('/') != std::string::npos || token.find('\\') != std::string::npos) return kPath;
  bool digits = !token.empty(), has_digit = false;
  for (unsigned char c : token) {
    if (c >= '0' && c <= '9')
      has_digit = true;
    else if (c != '.' && c != ',' && c != '-' && c != 'e')
      digits = false;
  }
  if (digits && has_digit) return kNum;
  return token;
}

std::string reference_normalize(const std::string& text) {
  std::string out;
  std::string token;
  auto flush = [&] {
    while (!token.empty() && (token.back() == '.' || token.back() == '+')) token.pop_back();
    if (!token.empty()) {
      if (!out.empty()) out += ' ';
      out += reference_mask(token);
    }
    token.clear();
  };
  bool in_code = false;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '`') {
      flush();
      if (!in_code) {
        if (!out.empty()) out += ' ';
        out += "<code>";
      }
      in_code = !in_code;
      continue;
    }
    if (c == '/' || c == '\\') {
      if (!token.empty()) {
        token += static_cast<char>(c);
        continue;
      }
      flush();
      continue;
    }
    if (reference_is_word_char(c)) {
      token += static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
    } else {
      flush();
    }
  }
  flush();
  return out;
}

std::vector<datasets::IssueRecord> bundled_issues() {
  testing::TempDir dir;
  datasets::Database db(dir.file("t.db"));
  datasets::import_snapshot(db, std::string(FAULTLINE_SOURCE_DIR) + "/datasets/snapshot/issues.jsonl");
  return datasets::load_issues(db);
}

TEST(TextFeatures, DocumentsOfTheBundledCorpusAreByteIdenticalToTheReference) {
  const auto& rules = RuleSet::builtin();
  auto issues = bundled_issues();
  ASSERT_EQ(issues.size(), 432u);
  for (const auto& issue : issues) {
    std::string text = reference_document_text(issue);
    ASSERT_EQ(document_text(issue), text) << issue.key();
    std::string expected = "__repo_" + issue.repo + " " + reference_normalize(text);
    for (int i : rules.fired(text)) expected += " __rule_" + rules.rules()[i].id;
    ASSERT_EQ(extract_features(rules, issue).document, expected) << issue.key();
  }
}

// Edges of the token rules: stripped trailing dots and pluses (down to nothing), glued and lone slashes,
// unclosed code spans, masks at the start and the end, upper case and UTF-8 bytes.
TEST(TextFeatures, NormalisationMatchesTheReferenceAtTheEdgesOfItsTokenRules) {
  for (const std::string text : {"",
                                 ".",
                                 "...",
                                 "+.+",
                                 "a. .b",
                                 " . x",
                                 "x .",
                                 "0x",
                                 "0x1F 0XAB",
                                 "/usr/lib",
                                 "a/b/ c\\d \\e",
                                 "/ /",
                                 "`code` after",
                                 "`unclosed span",
                                 "``",
                                 "C++ 3.11.",
                                 "1,000 2-3 1e5 e",
                                 "v2.3+ ..5",
                                 "Ünïcödé ß",
                                 "end.",
                                 "CUDA_ERROR_ILLEGAL_ADDRESS at 0x7ffd12 in /src/ops.cu:57."}) {
    EXPECT_EQ(normalize_for_fasttext(text), reference_normalize(text)) << "'" << text << "'";
  }
}

}  // namespace
}  // namespace faultline::model
