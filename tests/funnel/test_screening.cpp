#include <gtest/gtest.h>

#include "classifier/funnel/screening.hpp"
#include "common/error.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "tests/temp_dir.hpp"

using faultline::datasets::IssueRecord;
using faultline::funnel::screen_issue;
using faultline::funnel::ScreeningRules;

namespace {

IssueRecord issue(const std::string& title, const std::string& state = "closed",
                  std::vector<std::string> labels = {}) {
  IssueRecord r;
  r.repo = "NVIDIA/cutlass";
  r.number = 1;
  r.state = state;
  r.title = title;
  r.labels = std::move(labels);
  return r;
}

std::string rule(const std::string& title, const std::string& state = "closed",
                 std::vector<std::string> labels = {}) {
  auto outcome = screen_issue(ScreeningRules::builtin(), issue(title, state, std::move(labels)));
  return (outcome.candidate ? "candidate " : "excluded ") + outcome.rule;
}

}  // namespace

TEST(Screening, EachFailureTermAdmitsAClosedIssue) {
  EXPECT_EQ(rule("Bug in grouped GEMM epilogue"), "candidate title:bug");
  EXPECT_EQ(rule("RuntimeError when loading the extension"), "candidate title:error");
  EXPECT_EQ(rule("Installation fails on Windows"), "candidate title:fail");
  EXPECT_EQ(rule("Wrong output for bf16 inputs"), "candidate title:wrong");
  EXPECT_EQ(rule("Process crashes during backward"), "candidate title:crash");
  EXPECT_EQ(rule("Kernel hangs with 8 GPUs"), "candidate title:hang");
  EXPECT_EQ(rule("Regression in 2.3 matmul"), "candidate title:regression");
  EXPECT_EQ(rule("Poor performance on H100"), "candidate title:performance");
  EXPECT_EQ(rule("Numerical issue in softmax"), "candidate title:numerical");
}

TEST(Screening, WordFormsAndCaseVariantsMatch) {
  EXPECT_EQ(rule("BUGS everywhere"), "candidate title:bug");
  EXPECT_EQ(rule("compile ERRORS with nvcc 12.4"), "candidate title:error");
  EXPECT_EQ(rule("Build FAILED on sm_90"), "candidate title:fail");
  EXPECT_EQ(rule("Test failing after update"), "candidate title:fail");
  EXPECT_EQ(rule("Crashed with illegal instruction"), "candidate title:crash");
  EXPECT_EQ(rule("training Hanging at step 0"), "candidate title:hang");
  EXPECT_EQ(rule("NaN in attention output"), "candidate title:numerical");
  EXPECT_EQ(rule("nans with fp16"), "candidate title:numerical");
}

TEST(Screening, NearMissesAreNotFailureTerms) {
  // "debug", "failover" and "hanger" contain the letters of a term but are other words.
  EXPECT_EQ(rule("Add a debug flag"), "excluded title:no-failure-term");
  EXPECT_EQ(rule("Support failover to the CPU kernel"), "excluded title:no-failure-term");
  EXPECT_EQ(rule("Coat hanger example"), "excluded title:no-failure-term");
  EXPECT_EQ(rule("Support FP8 on Ada"), "excluded title:no-failure-term");
}

TEST(Screening, OpenIssueIsExcludedWhateverItsTitle) {
  EXPECT_EQ(rule("Crash in paged prefill", "open"), "excluded state:open");
}

TEST(Screening, EachOutOfScopeLabelExcludes) {
  const std::vector<std::pair<std::string, std::string>> cases = {{"question", "question"},
                                                                  {"feature request", "feature_request"},
                                                                  {"enhancement", "enhancement"},
                                                                  {"documentation", "documentation"},
                                                                  {"docs", "documentation"},
                                                                  {"roadmap", "roadmap"},
                                                                  {"tracking", "tracking"},
                                                                  {"help wanted", "help_wanted"},
                                                                  {"good first issue", "good_first_issue"},
                                                                  {"chore", "chore"},
                                                                  {"style", "style"}};
  for (const auto& [label, id] : cases) {
    EXPECT_EQ(rule("Crash in paged prefill", "closed", {label}), "excluded label:" + id) << label;
  }
  EXPECT_EQ(rule("Crash in paged prefill", "closed", {"Question"}), "excluded label:question");
  EXPECT_EQ(rule("Crash in paged prefill", "closed", {"bug"}), "candidate title:crash");
}

TEST(Screening, InvalidPatternIsReportedWithItsRule) {
  try {
    ScreeningRules::from_json_text(
        R"({"title_terms":[{"id":"x","pattern":"(unclosed"}],"exclude_labels":[]})", "r.json");
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("r.json: title term 1 ('x') has an invalid pattern"), std::string::npos)
        << e.what();
  }
}

// Each malformed file is refused with the entry it is about; the last line of the table, a valid file, is
// the trigger removed.
TEST(Screening, AMalformedRulesFileNamesTheEntryAndAPatternThatMatchesEverythingIsRefused) {
  auto error_of = [](const std::string& title_terms, const std::string& exclude = "[]") -> std::string {
    try {
      ScreeningRules::from_json_text(R"({"title_terms":)" + title_terms + R"(,"exclude_labels":)" + exclude + "}",
                                     "r.json");
    } catch (const faultline::Error& e) {
      return e.what();
    }
    return "";
  };
  const std::pair<std::string, std::string> cases[] = {
      {R"("crash")", "'title_terms' must be a list"},
      {R"(["crash"])", "title term 1: needs \"id\" and \"pattern\""},
      {R"([{"id":"x","pattern":7}])", "title term 1: needs"},
      {R"([{"id":"x","pattern":"crash"},{"id":"y"}])", "title term 2: needs"},
      {R"([{"id":"x","pattern":""}])", "title term 1: needs"},
      {R"([{"id":"x","pattern":"crash"},{"id":"x","pattern":"hang"}])", "title term 2: the id 'x' is given twice"},
      {R"([{"id":"x","pattern":"crash|"}])", "title term 1 ('x') matches the empty text"},
      {R"([{"id":"x","pattern":"(bug)?"}])", "title term 1 ('x') matches the empty text"},
      {R"([{"id":"x","pattern":"\\b"}])", "title term 1 ('x') matches the empty text or every ordinary title"},
      {R"([{"id":"x","pattern":"."}])", "title term 1 ('x') matches the empty text or every ordinary title"},
      {R"([{"id":"x","pattern":"[a-z]+"}])", "title term 1 ('x') matches the empty text or every ordinary title"},
      {R"([{"id":"x","pattern":"\\W|[a-z]"}])", "title term 1 ('x') matches the empty text or every ordinary title"},
      {R"([{"id":"x","pattern":".."}])", "title term 1 ('x') matches the empty text or every ordinary title"},
  };
  for (const auto& [terms, expected] : cases) {
    const std::string error = error_of(terms);
    EXPECT_NE(error.find("screening rules r.json: " + expected), std::string::npos) << terms << ": " << error;
  }
  EXPECT_NE(error_of(R"([{"id":"x","pattern":"crash"}])", R"([{"id":"q","pattern":".*"}])")
                .find("exclude label 1 ('q') matches the empty text"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"id":"x","pattern":"crash"}])", R"([{"id":"q","pattern":"[a-z ]+"}])")
                .find("exclude label 1 ('q') matches the empty text or every ordinary label"),
            std::string::npos);
  // Real terms are not refused: short ones, a word's edges, a digit class.
  for (const char* pattern : {"\\\\bOOM\\\\b", "nan", "\\\\bnan\\\\b", "ptxas", "v[0-9]", "\\\\d"})
    EXPECT_EQ(error_of(std::string(R"([{"id":"x","pattern":")") + pattern + R"("}])"), "") << pattern;
  EXPECT_EQ(error_of(R"([{"id":"x","pattern":"crash"},{"id":"y","pattern":"\\bhang\\b"}])"), "");
}

TEST(Screening, AKeyTwiceInOneObjectIsRefused) {
  // Without the check the second title_terms would replace the first without a word.
  try {
    ScreeningRules::from_json_text(R"({"title_terms":[{"id":"x","pattern":"crash"}],"exclude_labels":[],)"
                                   R"("title_terms":[{"id":"y","pattern":"hang"}]})",
                                   "r.json");
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "screening rules r.json: the key 'title_terms' appears twice in one object");
  }
}

TEST(Screening, StoreRecordsEveryDecisionWithItsRule) {
  faultline::testing::TempDir dir;
  faultline::datasets::Database db(dir.file("s.db"));
  auto a = issue("Kernel crash", "closed");
  auto b = issue("Kernel crash", "open");
  b.number = 2;
  auto c = issue("Feature: add FP8", "closed");
  c.number = 3;
  for (const auto& r : {a, b, c}) faultline::datasets::upsert_issue(db, r);
  auto funnel = faultline::funnel::screen_store(db, ScreeningRules::builtin());
  EXPECT_EQ(funnel["NVIDIA/cutlass"].raw, 3);
  EXPECT_EQ(funnel["NVIDIA/cutlass"].candidates, 1);
  auto decisions = faultline::datasets::load_screening(db);
  ASSERT_EQ(decisions.size(), 3u);
  EXPECT_EQ(decisions[*faultline::datasets::find_issue(db, "NVIDIA/cutlass", 1)].rule, "title:crash");
  EXPECT_EQ(decisions[*faultline::datasets::find_issue(db, "NVIDIA/cutlass", 2)].rule, "state:open");
  EXPECT_EQ(decisions[*faultline::datasets::find_issue(db, "NVIDIA/cutlass", 3)].rule,
            "title:no-failure-term");
}

TEST(Screening, APersonsScopeDecisionStandsOverTheRulesUnlessRulesOnly) {
  // An open issue with no failure term that a person judged in scope, and a closed "crash" a person judged
  // out of scope: followed, the person decides both; with the rules alone both flip.
  auto in = issue("Question about the epilogue", "open");
  in.scope = "in";
  auto out = issue("Kernel crash", "closed");
  out.scope = "out";
  const auto& rules = ScreeningRules::builtin();
  auto followed_in = screen_issue(rules, in);
  auto followed_out = screen_issue(rules, out);
  EXPECT_TRUE(followed_in.candidate);
  EXPECT_EQ(followed_in.rule, "scope:in");
  EXPECT_FALSE(followed_out.candidate);
  EXPECT_EQ(followed_out.rule, "scope:out");
  auto ruled_in = screen_issue(rules, in, faultline::funnel::ScopeDecisions::kIgnore);
  auto ruled_out = screen_issue(rules, out, faultline::funnel::ScopeDecisions::kIgnore);
  EXPECT_FALSE(ruled_in.candidate);
  EXPECT_EQ(ruled_in.rule, "state:open");
  EXPECT_TRUE(ruled_out.candidate);
  EXPECT_EQ(ruled_out.rule, "title:crash");
}

TEST(Screening, StoreCountsTheDecisionsAPersonMade) {
  faultline::testing::TempDir dir;
  faultline::datasets::Database db(dir.file("s.db"));
  auto a = issue("Kernel crash", "closed");  // rules: candidate
  auto b = issue("How to build", "open");    // a person: in
  b.number = 2;
  b.scope = "in";
  for (const auto& r : {a, b}) faultline::datasets::upsert_issue(db, r);
  auto funnel = faultline::funnel::screen_store(db, ScreeningRules::builtin());
  EXPECT_EQ(funnel["NVIDIA/cutlass"].candidates, 2);
  EXPECT_EQ(funnel["NVIDIA/cutlass"].scope_decisions, 1);
  EXPECT_EQ(funnel["NVIDIA/cutlass"].overriding_rules, 1);  // the rules exclude the open #2
  auto rules_only = faultline::funnel::screen_store(db, ScreeningRules::builtin(),
                                                    faultline::funnel::ScopeDecisions::kIgnore);
  EXPECT_EQ(rules_only["NVIDIA/cutlass"].candidates, 1);
  EXPECT_EQ(rules_only["NVIDIA/cutlass"].scope_decisions, 0);
  // A scope decision that agrees with the rules is counted as a decision but not as overriding them.
  auto c = issue("Kernel crash", "closed");
  c.number = 3;
  c.scope = "in";
  faultline::datasets::upsert_issue(db, c);
  auto agreeing = faultline::funnel::screen_store(db, ScreeningRules::builtin());
  EXPECT_EQ(agreeing["NVIDIA/cutlass"].scope_decisions, 2);
  EXPECT_EQ(agreeing["NVIDIA/cutlass"].overriding_rules, 1);
}
