// The "tokens that moved each decision" claim checked from outside: each token is removed from the document
// here, by splitting the text, and the classifier run on what is left (the same rule hits); the reported drop
// must be what that gives, and
// no token left out of the list may move the decision more than the last one in it.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <tuple>

#include "classifier/model/token_influence.hpp"
#include "tests/model/mixed_corpus.hpp"

using namespace faultline::model;

namespace {

const IssueClassifier& trained() {
  static const IssueClassifier model = [] {
    AxisTraining t = AxisTraining::standard();
    t.grid.resize(1);
    std::vector<faultline::datasets::IssueRecord> scoped;
    for (auto l : faultline::testing::mixed_corpus()) {
      l.issue.scope = l.issue.number % 3 ? "in" : "out";
      scoped.push_back(l.issue);
    }
    return IssueClassifier::train(faultline::testing::mixed_corpus(), scoped, t);
  }();
  return model;
}

// An issue that mixes two classes, so that its decisions are not certain.
faultline::datasets::IssueRecord mixed_issue() {
  faultline::datasets::IssueRecord r;
  r.repo = "o/r";
  r.number = 999;
  r.state = "open";
  r.title = "kernel stuck at barrier";
  r.body =
      "the build hangs forever when running allreduce and an illegal memory access is seen once with cuda "
      "version 12";
  return r;
}

std::string without_word(const std::string& document, const std::string& word) {
  std::istringstream in(document);
  std::string out;
  for (std::string w; in >> w;) {
    if (w != word) out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

// The issue's analysis with `document` in place of its own, the rule hits kept.
using AxisOf = Distribution IssueAnalysis::*;
double probability(const IssueFeatures& f, const std::string& document, AxisOf axis,
                   const std::string& label) {
  // The issues it is called for have no discussion, so there is no second reading to move.
  EXPECT_EQ(f.discussion_again.begin, f.discussion_again.end);
  IssueFeatures g = f;
  g.document = document;
  g.tokens = tokenize(document);
  return (trained().analyse(g).*axis).at(label);
}

std::vector<std::string> distinct_words(const std::string& document) {
  std::istringstream in(document);
  std::vector<std::string> out;
  for (std::string w; in >> w;) {
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  }
  return out;
}

void check_axis(const IssueFeatures& f, AxisOf axis, const std::string& chosen,
                const std::vector<TokenInfluence>& reported) {
  ASSERT_FALSE(reported.empty());
  const double base = probability(f, f.document, axis, chosen);
  for (const auto& r : reported) {
    EXPECT_NEAR(base - probability(f, without_word(f.document, r.token), axis, chosen), r.drop, 1e-9)
        << r.token;
  }
  const double smallest = reported.back().drop;
  int others = 0;
  for (const auto& w : distinct_words(f.document)) {
    if (w.rfind("__rule_", 0) == 0) continue;
    bool listed = std::any_of(reported.begin(), reported.end(), [&](const auto& r) { return r.token == w; });
    if (listed) continue;
    ++others;
    double drop = base - probability(f, without_word(f.document, w), axis, chosen);
    // With a full list of 5, no other token moves more than the 5th; with fewer, no other lowers it at all.
    EXPECT_LE(drop, reported.size() == 5 ? smallest : 0.0) << w;
  }
  EXPECT_GT(others, 0);
}

}  // namespace

TEST(TokenInfluence, ReportedDropsAreWhatRemovingTheTokenFromTheTextGives) {
  const auto& model = trained();
  auto f = extract_features(model.rules(), mixed_issue());
  auto p = model.predict(f);
  auto influences = token_influences(model, f, p);
  EXPECT_EQ(influences.tokens_tried, influences.tokens_distinct);  // a short issue: every token tried
  check_axis(f, &IssueAnalysis::symptom, p.symptom, influences.symptom);
  check_axis(f, &IssueAnalysis::root_cause, p.root_cause, influences.root_cause);
  ASSERT_NE(p.scope, "unknown");
  check_axis(f, &IssueAnalysis::scope, p.scope, influences.scope);
  EXPECT_LE(influences.symptom.size(), 5u);
  for (size_t i = 1; i < influences.symptom.size(); ++i)
    EXPECT_GE(influences.symptom[i - 1].drop, influences.symptom[i].drop);
}

TEST(TokenInfluence, AListedTokenCutFromTheIssueTextLowersTheProbabilityByItsDrop) {
  // The same claim from the raw text: a listed symptom token cut out of the title and body before the
  // features are extracted. Influences hold the rule hits fixed, so the first listed token whose removal
  // leaves the same rules firing is the one checked (cutting a word a rule matches changes the rules too),
  // and it must be a word the text holds as it is listed (a stem such as "allreduc" is not a word of the
  // text, so cutting it leaves the text as it was).
  const auto& model = trained();
  auto issue = mixed_issue();
  auto f = extract_features(model.rules(), issue);
  auto p = model.predict(f);
  int checked = 0;
  for (const auto& listed : token_influences(model, f, p).symptom) {
    auto cut = issue;
    cut.title = without_word(cut.title, listed.token);
    cut.body = without_word(cut.body, listed.token);
    if (cut.title == issue.title && cut.body == issue.body) continue;  // a stem the text does not hold
    auto g = extract_features(model.rules(), cut);
    if (g.fired != f.fired) continue;
    ASSERT_EQ(g.document, without_word(f.document, listed.token));
    EXPECT_NEAR(p.symptom_p - model.analyse(g).symptom.at(p.symptom), listed.drop, 1e-9) << listed.token;
    ++checked;
    break;
  }
  EXPECT_EQ(checked, 1);
}

TEST(TokenInfluence, ATokenCutFromTheReportAndTheDiscussionLowersEachAxisByItsDrop) {
  // The symptom's fastText model skips the discussion's second reading, so a token cut before or inside it
  // must leave that reading where the tokens now are. The reference is the issue with the word cut from its
  // text, the features (and the second reading's place) extracted afresh. Listed tokens whose raw word
  // differs from the token (a stem) or whose cut changes the rules are passed over.
  const auto& model = trained();
  auto issue = mixed_issue();
  // Words the models know, of two classes, so that the decisions stay unsure and a second reading put a few
  // tokens off reads otherwise.
  issue.discussion = "kernel stuck on an illegal memory access at the barrier";
  auto f = extract_features(model.rules(), issue);
  ASSERT_LT(f.discussion_again.begin, f.discussion_again.end);
  auto p = model.predict(f);
  auto influences = token_influences(model, f, p, 1000);  // every token that lowers a decision
  auto report_only = issue;
  report_only.discussion.clear();
  const Tokens report = extract_features(model.rules(), report_only).tokens;
  auto contains = [](auto begin, auto end, const std::string& word) {
    return std::find(begin, end, word) != end;
  };
  int checked_in_both = 0;
  for (auto [axis, chosen, listed] :
       {std::tuple{&IssueAnalysis::symptom, p.symptom, influences.symptom},
        std::tuple{&IssueAnalysis::root_cause, p.root_cause, influences.root_cause}}) {
    for (const auto& token : listed) {
      auto cut = issue;
      for (auto* part : {&cut.title, &cut.body, &cut.discussion}) *part = without_word(*part, token.token);
      auto g = extract_features(model.rules(), cut);
      if (g.fired != f.fired || g.document != without_word(f.document, token.token)) continue;
      const bool in_report = contains(report.words.begin(), report.words.end(), token.token);
      const bool in_discussion =
          contains(f.tokens.words.begin() + static_cast<long>(f.discussion_again.begin),
                   f.tokens.words.begin() + static_cast<long>(f.discussion_again.end), token.token);
      EXPECT_NEAR((model.analyse(f).*axis).at(chosen) - (model.analyse(g).*axis).at(chosen), token.drop, 1e-9)
          << token.token;
      checked_in_both += in_report && in_discussion;
    }
  }
  EXPECT_GT(checked_in_both, 0);
}

TEST(TokenInfluence, ALongDocumentTriesItsMostFrequentTokensWithinTheBudget) {
  const auto& model = trained();
  auto issue = mixed_issue();
  for (int i = 0; i < 200; ++i) issue.body += " word" + std::to_string(i);  // 200 distinct, once each
  issue.body += " deadlock deadlock deadlock";
  auto f = extract_features(model.rules(), issue);
  auto p = model.predict(f);
  const size_t length = f.tokens.words.size();
  auto all = token_influences(model, f, p, 5, 1'000'000'000);
  EXPECT_EQ(all.tokens_tried, all.tokens_distinct);
  // A budget of 30 tries of this length: the 30 most frequent tokens, then the earliest; the appended words
  // come after the issue's own, so word29 and later are never tried.
  auto bounded = token_influences(model, f, p, 5, 30 * length);
  EXPECT_EQ(bounded.tokens_distinct, all.tokens_distinct);
  EXPECT_EQ(bounded.tokens_tried, 30u);
  for (const auto* axis : {&bounded.symptom, &bounded.root_cause, &bounded.scope}) {
    for (const auto& t : *axis) {
      if (t.token.rfind("word", 0) == 0) {
        EXPECT_LT(std::stoi(t.token.substr(4)), 29) << t.token;
      }
    }
  }
  // Never fewer than 5 (a full list), however long.
  EXPECT_EQ(token_influences(model, f, p, 5, 1).tokens_tried, 5u);
}
