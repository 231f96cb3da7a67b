// The classifier's document must not change when its code is made faster: the models were trained on it.
// The reference below is the implementation as it was before (document_text and normalize_for_fasttext of
// a0aaca3, verbatim but for names), a second implementation to compare against, with what was added since
// written out apart: leading underscores dropped, words stemmed (english_stem, tested on its own against
// Snowball's references), the discussion read twice and the environment section left out of the document
// (the rules still read it), and the repository token folded to lower case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>

#include "classifier/model/issue_classifier.hpp"
#include "classifier/model/text_features.hpp"
#include "classifier/model/word_stemmer.hpp"
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
    token.erase(0, token.find_first_not_of('_'));  // npos (all underscores): erased whole
    if (!token.empty()) {
      if (!out.empty()) out += ' ';
      const std::string& masked = reference_mask(token);
      out += &masked == &token ? std::string(english_stem(token)) : masked;
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

// The document as the reference writes it: the text without the environment normalised, then the
// discussion alone, then the rules that fire in the whole text, the environment included.
std::string reference_document(const datasets::IssueRecord& issue, const RuleSet& rules) {
  datasets::IssueRecord without_env = issue;
  without_env.env.clear();
  std::string repo = issue.repo;  // the token folds the name to lower case (names are ASCII)
  for (char& c : repo) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string expected = "__repo_" + repo + " " + reference_normalize(reference_document_text(without_env));
  if (std::string alone = reference_normalize(issue.discussion); !alone.empty()) expected += " " + alone;
  for (int i : rules.fired(reference_document_text(issue))) expected += " __rule_" + rules.rules()[i].id;
  return expected;
}

TEST(TextFeatures, DocumentsOfTheBundledCorpusAreByteIdenticalToTheReference) {
  const auto& rules = RuleSet::builtin();
  auto issues = bundled_issues();
  ASSERT_EQ(issues.size(), 432u);
  for (const auto& issue : issues) {
    ASSERT_EQ(document_text(issue), reference_document_text(issue)) << issue.key();
    ASSERT_EQ(extract_features(rules, issue).document, reference_document(issue, rules)) << issue.key();
  }
}

// The report and the discussion are normalised apart: where the report leaves a code span open, its
// discussion reads differently in the whole text and alone, and the document must still hold both forms
// as the reference (the whole text normalised, then the discussion alone) writes them.
TEST(TextFeatures, DocumentsAreTheReferencesWhereTheReportLeavesACodeSpanOpen) {
  const auto& rules = RuleSet::builtin();
  const std::vector<std::pair<std::string, std::string>> bodies_and_discussions = {
      {"an `open span", "fixed in `setup.py` by pinning"},
      {"an `open span", "`closes here` and reads on"},
      {"`", "`"},
      {"closed `span` here", "`opens` twice ` and stays"},
      {"", "only a discussion with `code`"},
      {"only a report with `code", ""},
      {"ends in a path /usr/lib", "/starts with a slash and __label__x"},
      {"...", "..."},
      {"`", ""},
      {"", "x"},
      {"...", "y"},
      {"`", "z"},
  };
  for (const auto& [body, discussion] : bodies_and_discussions) {
    // With an error line the report always has a token; without one it may have none ("", "...", "`").
    for (const bool with_error_line : {true, false}) {
      datasets::IssueRecord issue;
      issue.repo = "o/r";
      issue.body = body;
      issue.discussion = discussion;
      if (with_error_line) issue.error_lines = {"RuntimeError: boom"};
      EXPECT_EQ(extract_features(rules, issue).document, reference_document(issue, rules))
          << "'" << body << "' / '" << discussion << "' with_error_line " << with_error_line;
    }
  }
}

// The two-part form against the one-part reference: a text cut after a newline normalises to the parts'
// forms joined, the first part's open code span carried into the second.
TEST(TextFeatures, NormalisingInTwoPartsCarriesTheCodeSpanAcross) {
  for (const auto& [first, second] : std::vector<std::pair<std::string, std::string>>{{"a `b\n", "c` d"},
                                                                                      {"a `b`\n", "c` d"},
                                                                                      {"\n", "`x"},
                                                                                      {"a\n", ""},
                                                                                      {"`\n", "`"},
                                                                                      {"x.\n", ".y"}}) {
    bool in_code = false;
    std::string a = normalize_for_fasttext(first, in_code);
    EXPECT_EQ(in_code, std::count(first.begin(), first.end(), '`') % 2 == 1) << first;
    std::string b = normalize_for_fasttext(second, in_code);
    std::string joined = a.empty() ? b : b.empty() ? a : a + " " + b;
    EXPECT_EQ(joined, reference_normalize(first + second)) << "'" << first << "' + '" << second << "'";
  }
}

TEST(TextFeatures, TheEnvironmentIsLeftOutOfTheDocumentButNotOutOfTheRules) {
  // "setup.py" is the build_flags rule's (root cause build_misconfiguration, weight 1.5).
  datasets::IssueRecord issue;
  issue.repo = "o/r";
  issue.body = "quux fails";
  issue.env = "zyzzyva 12.4, built with setup.py";
  const IssueFeatures f = extract_features(RuleSet::builtin(), issue);
  EXPECT_EQ(f.document, "__repo_o/r quux fail __rule_build_flags");
  EXPECT_DOUBLE_EQ(f.root_cause_rules.at("build_misconfiguration"), 1.5);
  // The same words in the body are in the document.
  issue.body += " " + issue.env;
  issue.env.clear();
  EXPECT_EQ(extract_features(RuleSet::builtin(), issue).document,
            "__repo_o/r quux fail zyzzyva <num> built with setup.py __rule_build_flags");
}

// kBytesReadPerField is 65,536; the cuts below are worked out by hand from it.
TEST(TextFeatures, EachFieldIsReadUpToTheLimitAndNoCharacterIsSplit) {
  datasets::IssueRecord issue;
  issue.repo = "o/r";
  issue.title = "short";
  issue.env = "A100";
  issue.body = "quux";
  issue.error_lines = {"e"};
  EXPECT_FALSE(cut_to_what_is_read(issue));  // within every limit: no copy
  issue.body = std::string(65'536, 'a');
  EXPECT_FALSE(cut_to_what_is_read(issue));  // exactly at it
  // 65,535 bytes of 'a', then "é" (C3 A9) across the limit: the cut falls before its lead byte.
  issue.body = std::string(65'535, 'a') + "\xC3\xA9 zyzzyva";
  issue.discussion = std::string(65'540, 'd');
  // Error lines count with their newlines: 40,001 bytes for the first leaves 25,535, so the second is cut to
  // 25,534 (its newline is the last byte) and the third dropped.
  issue.error_lines = {std::string(40'000, 'x'), std::string(40'000, 'y'), "zyzzyva"};
  const std::optional<datasets::IssueRecord> cut = cut_to_what_is_read(issue);
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->title, "short");
  EXPECT_EQ(cut->env, "A100");
  EXPECT_EQ(cut->body, std::string(65'535, 'a'));
  EXPECT_EQ(cut->discussion, std::string(65'536, 'd'));
  EXPECT_EQ(cut->error_lines, (std::vector<std::string>{std::string(40'000, 'x'), std::string(25'534, 'y')}));
  // The classifier reads the cut issue: the word past the limits is in none of its tokens.
  const IssueFeatures whole = extract_features(RuleSet::builtin(), issue);
  EXPECT_EQ(whole.document, extract_features(RuleSet::builtin(), *cut).document);
  EXPECT_EQ(whole.document.find("zyzzyva"), std::string::npos);
  // The title and the environment are cut as the body is ("€" is E2 82 AC, across the limit at 65,535).
  datasets::IssueRecord headed;
  headed.title = std::string(65'535, 't') + "\xE2\x82\xAC";
  headed.env = std::string(65'537, 'v');
  ASSERT_TRUE(cut_to_what_is_read(headed));
  EXPECT_EQ(cut_to_what_is_read(headed)->title, std::string(65'535, 't'));
  EXPECT_EQ(cut_to_what_is_read(headed)->env, std::string(65'536, 'v'));
  // Error lines that are all empty still count their newlines: 65,537 of them cross the limit by one.
  datasets::IssueRecord lines;
  lines.error_lines.assign(65'537, "");
  ASSERT_TRUE(cut_to_what_is_read(lines));
  EXPECT_EQ(cut_to_what_is_read(lines)->error_lines.size(), 65'536u);
}

size_t occurrences(const std::string& document, const std::string& token) {
  size_t n = 0;
  for (size_t at = 0; (at = document.find(" " + token + " ", at)) != std::string::npos; ++at) ++n;
  return n;
}

TEST(TextFeatures, TheDiscussionIsReadTwiceAndTheReportOnce) {
  datasets::IssueRecord issue;
  issue.repo = "o/r";
  issue.body = "zyzzyva in the report";
  issue.discussion = "quux in the diagnosis";
  const std::string document = extract_features(RuleSet::builtin(), issue).document + " ";
  EXPECT_EQ(occurrences(document, "zyzzyva"), 1u);
  EXPECT_EQ(occurrences(document, "quux"), 2u);
  // Without a discussion nothing is added, not even a space.
  issue.discussion.clear();
  EXPECT_EQ(extract_features(RuleSet::builtin(), issue).document, "__repo_o/r zyzzyva in the report");
}

TEST(TextFeatures, TheDiscussionsSecondReadingIsMarked) {
  datasets::IssueRecord issue;
  issue.repo = "o/r";
  issue.body = "zyzzyva in the report";
  issue.discussion = "quux in the end; setup.py";
  IssueFeatures f = extract_features(RuleSet::builtin(), issue);
  // __repo_o/r zyzzyva in the report (0-4), quux in the end setup.py (5-9), again (10-14), the rule's token.
  EXPECT_EQ(f.document,
            "__repo_o/r zyzzyva in the report quux in the end setup.py quux in the end setup.py "
            "__rule_build_flags");
  EXPECT_EQ(f.discussion_again.begin, 10u);
  EXPECT_EQ(f.discussion_again.end, 15u);
  // The report leaves a code span open: the first reading is in it, the second (read alone) is not.
  issue.body = "zyzzyva `in the";
  f = extract_features(RuleSet::builtin(), issue);
  // __repo_o/r zyzzyva <code> in the (0-4); quux in the end setup.py (5-9), read in the span; the second
  // reading, outside it, the same words (10-14).
  EXPECT_EQ(f.discussion_again.begin, 10u);
  EXPECT_EQ(f.discussion_again.end, 15u);
  // Read in the span this is "quux in <code> the end"; read alone, "quux <code> in the end".
  issue.discussion = "quux `in` the end";
  f = extract_features(RuleSet::builtin(), issue);
  const std::vector<std::string> second(f.tokens.words.begin() + static_cast<long>(f.discussion_again.begin),
                                        f.tokens.words.begin() + static_cast<long>(f.discussion_again.end));
  EXPECT_EQ(second, (std::vector<std::string>{"quux", "<code>", "in", "the", "end"}));
  // One backtick: read in the span it closes it, "quux in the end" (5-8); read alone it opens one,
  // "quux <code> in the end" (9-13). The readings differ in length.
  issue.discussion = "quux `in the end";
  f = extract_features(RuleSet::builtin(), issue);
  EXPECT_EQ(f.document, "__repo_o/r zyzzyva <code> in the quux in the end quux <code> in the end");
  EXPECT_EQ(f.discussion_again.begin, 9u);
  EXPECT_EQ(f.discussion_again.end, 14u);
  // Without a discussion the mark is empty, at the end of the report.
  issue.discussion.clear();
  f = extract_features(RuleSet::builtin(), issue);
  EXPECT_EQ(f.discussion_again.begin, f.discussion_again.end);
}

TEST(TextFeatures, RulesThatFireInTheDiscussionAreScoredApart) {
  // "setup.py" is the build_flags rule's (root cause build_misconfiguration, weight 1.5): in the
  // discussion it counts in both scores, in the body only in the whole-issue one.
  datasets::IssueRecord issue;
  issue.repo = "o/r";
  issue.discussion = "the fix was in setup.py";
  IssueFeatures in_discussion = extract_features(RuleSet::builtin(), issue);
  EXPECT_DOUBLE_EQ(in_discussion.root_cause_rules.at("build_misconfiguration"), 1.5);
  EXPECT_DOUBLE_EQ(in_discussion.root_cause_discussion_rules.at("build_misconfiguration"), 1.5);
  issue.body = issue.discussion;
  issue.discussion.clear();
  IssueFeatures in_body = extract_features(RuleSet::builtin(), issue);
  EXPECT_DOUBLE_EQ(in_body.root_cause_rules.at("build_misconfiguration"), 1.5);
  EXPECT_TRUE(in_body.root_cause_discussion_rules.empty());
}

TEST(TextFeatures, IssueTextCannotSpellALabelOrTheClassifiersOwnTokens) {
  EXPECT_EQ(normalize_for_fasttext("see __label__api_misuse and __rule_compiler_bug, ___ __init__.py"),
            "see label__api_misuse and rule_compiler_bug init__.py");
  datasets::IssueRecord issue;
  issue.repo = "o/r";
  issue.body = "__label__bogus __repo_evil __rule_compiler_bug";
  const std::string document = extract_features(RuleSet::builtin(), issue).document;
  EXPECT_EQ(document, "__repo_o/r label__bogus repo_evil rule_compiler_bug");
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
                                 "_lead __dunder__ ___ _.",
                                 "_Upgrading __failures.",
                                 "Upgrading upgraded compilation failures",
                                 "CUDA_ERROR_ILLEGAL_ADDRESS at 0x7ffd12 in /src/ops.cu:57."}) {
    EXPECT_EQ(normalize_for_fasttext(text), reference_normalize(text)) << "'" << text << "'";
  }
}

TEST(TextFeatures, TheRepositoryTokenIsTheSameInEveryCase) {
  // GitHub's names ignore case: a record under another spelling keeps the repository's prior.
  datasets::IssueRecord issue;
  issue.repo = "NVIDIA/Cutlass";
  issue.body = "quux fails";
  EXPECT_EQ(extract_features(RuleSet::builtin(), issue).document, "__repo_nvidia/cutlass quux fail");
  issue.repo = "nvidia/cutlass";
  EXPECT_EQ(extract_features(RuleSet::builtin(), issue).document, "__repo_nvidia/cutlass quux fail");
}

}  // namespace
}  // namespace faultline::model
