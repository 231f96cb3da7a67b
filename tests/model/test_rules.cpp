#include <gtest/gtest.h>

#include "classifier/model/rules.hpp"
#include "classifier/model/text_features.hpp"
#include "common/error.hpp"

using faultline::model::normalize_for_fasttext;
using faultline::model::RuleSet;

TEST(Rules, EveryEntryFiresOnItsExampleAndNotOnItsNearMiss) {
  const RuleSet& set = RuleSet::builtin();
  ASSERT_GE(set.rules().size(), 20u);
  for (size_t i = 0; i < set.rules().size(); ++i) {
    const auto& rule = set.rules()[i];
    ASSERT_FALSE(rule.example.empty()) << rule.id;
    ASSERT_FALSE(rule.near_miss.empty()) << rule.id;
    auto on_example = set.fired(rule.example);
    auto on_near_miss = set.fired(rule.near_miss);
    EXPECT_NE(std::find(on_example.begin(), on_example.end(), static_cast<int>(i)), on_example.end())
        << rule.id << " does not fire on: " << rule.example;
    EXPECT_EQ(std::find(on_near_miss.begin(), on_near_miss.end(), static_cast<int>(i)), on_near_miss.end())
        << rule.id << " fires on its near miss: " << rule.near_miss;
  }
}

// A rule's words in the forms issues write them (alone, in code identifiers, inflected) fire it; ordinary
// words that only contain them do not. Each pair was written by hand; every "does not fire" text fired its
// rule before the patterns were held to a word's edge.
TEST(Rules, BuiltInRulesFireOnTheirWordsAndNotInsideOtherWords) {
  const RuleSet& set = RuleSet::builtin();
  auto fires = [&](const std::string& text, const std::string& id) {
    bool known = false;
    for (const auto& rule : set.rules()) known = known || rule.id == id;
    EXPECT_TRUE(known) << "no rule " << id;
    for (int i : set.fired(text)) {
      if (set.rules()[i].id == id) return true;
    }
    return false;
  };
  const std::vector<std::pair<std::string, std::string>> firing = {
      {"ABI mismatch between the wheel and torch", "abi_undefined_symbol"},
      {"the two ABIs differ", "abi_undefined_symbol"},
      {"an abi3 wheel", "abi_undefined_symbol"},
      {"in __cxxabiv1::__forced_unwind", "abi_undefined_symbol"},
      {"-D_GLIBCXX_USE_CXX11_ABI=0", "abi_undefined_symbol"},
      {"-DUSE_CXX_ABI=0", "abi_undefined_symbol"},
      {"torch_abi_tag", "abi_undefined_symbol"},
      {"on Turing GPUs", "gpu_unsupported"},
      {"sm75_turing_tensorop", "gpu_unsupported"},
      {"a Volta card", "gpu_unsupported"},
      {"sm70_volta_hmma", "gpu_unsupported"},
      {"ieee_rounding mode", "numerics"},
      {"the sum overflows", "numerics"},
      {"int32_overflow", "numerics"},
      {"it recompiles on every call", "perf_bug"},
      {"num_recompiles grows", "perf_bug"},
      {"ptxas fatal", "ir_verification"},
      {"set ptxas_path", "ir_verification"},
      {"the process freezes", "hang_words"},
      {"test_freeze_hang", "hang_words"},
      {"outputs are not close", "wrong_values"},
      {"tensors are not equal", "wrong_values"},
      {"allclose: not equal_nan", "wrong_values"},
      {"lowering fails", "compiler_bug"},
      {"register_lowering(aten.mm)", "compiler_bug"},
      {"two lowerings disagree", "compiler_bug"},
      {"installed torch 2.1", "version_mismatch"},
      {"reinstalled torch 2.1", "version_mismatch"},
      {"bit packing of int4", "layout"},
      {"int4_packing", "layout"},
      {"weight repacking", "layout"},
      {"a typo in the mask", "logic"},
      {"fix_typo", "logic"},
  };
  for (const auto& [text, id] : firing) EXPECT_TRUE(fires(text, id)) << id << " does not fire on: " << text;
  const std::vector<std::pair<std::string, std::string>> not_firing = {
      {"compute capability 8.0 and its availability", "abi_undefined_symbol"},
      {"probability, reliability, usability", "abi_undefined_symbol"},
      {"while capturing a graph", "gpu_unsupported"},
      {"the voltage regulator", "gpu_unsupported"},
      {"the surrounding code", "numerics"},
      {"asked on stackoverflow", "numerics"},
      {"a precompiled wheel", "perf_bug"},
      {"inline PTX assembly", "ir_verification"},
      {"add antifreeze", "hang_words"},
      {"the issue is not closed", "wrong_values"},
      {"not equally fast", "wrong_values"},
      {"a flowered shirt", "compiler_bug"},
      {"uninstalled torch 2.1", "version_mismatch"},
      {"unpacking the archive", "layout"},
      {"typography of the docs", "logic"},
  };
  for (const auto& [text, id] : not_firing) EXPECT_FALSE(fires(text, id)) << id << " fires on: " << text;
}

TEST(Rules, EveryCategoryOfBothAxesHasARule) {
  std::set<std::string> covered;
  for (const auto& r : RuleSet::builtin().rules()) covered.insert(r.category);
  for (const auto& id : {"deployment_failure",
                         "build_failure",
                         "crash",
                         "hang",
                         "incorrect_functionality",
                         "performance_degradation",
                         "code_logic_error",
                         "incorrect_numerical_computation",
                         "incorrect_indexing",
                         "tensor_layout_mismatch",
                         "improper_memory_access",
                         "state_mismanagement",
                         "concurrency_error",
                         "improper_kernel_dispatch",
                         "resource_mismanagement",
                         "performance_bug",
                         "api_misuse",
                         "incorrect_compiler_transformation",
                         "build_misconfiguration",
                         "hardware_incompatibility",
                         "software_incompatibility"}) {
    EXPECT_TRUE(covered.count(id)) << id;
  }
}

TEST(Rules, ScoresSumTheWeightsOfFiredRulesPerCategory) {
  auto set = RuleSet::from_json_text(R"({"rules":[
    {"id":"a","axis":"symptom","category":"hang","pattern":"deadlock","weight":2},
    {"id":"b","axis":"symptom","category":"hang","pattern":"stuck","weight":0.5},
    {"id":"c","axis":"root_cause","category":"concurrency_error","pattern":"deadlock","weight":1}]})",
                                     "t.json");
  auto fired = set.fired("a deadlock left the job stuck");
  EXPECT_EQ(fired, (std::vector<int>{0, 1, 2}));
  EXPECT_DOUBLE_EQ(set.scores(fired, "symptom")["hang"], 2.5);
  EXPECT_DOUBLE_EQ(set.scores(fired, "root_cause")["concurrency_error"], 1.0);
}

// A pattern matches within one line, whatever it says (\s, a negated class or (?s) would otherwise take a
// line break), so that an issue's parts can be scanned apart.
TEST(Rules, APatternNeverMatchesAcrossALineBreak) {
  auto set = RuleSet::from_json_text(R"({"rules":[
    {"id":"a","axis":"symptom","category":"hang","pattern":"dead\\s+lock","weight":1},
    {"id":"b","axis":"symptom","category":"hang","pattern":"stuck[^x]at","weight":1},
    {"id":"c","axis":"symptom","category":"hang","pattern":"(?s)never.ends","weight":1}]})",
                                     "t.json");
  EXPECT_EQ(set.fired("dead  lock; stuck at; never ends"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(set.fired("dead\nlock; stuck\nat; never\nends"), (std::vector<int>{}));
  EXPECT_EQ(set.fired("one\ntwo\nthree dead lock"), (std::vector<int>{0}));  // on any line
}

// Scanning an issue's parts apart gives the whole text's rules only if no rule holds to where a text starts
// or ends, and one that matches an empty text would fire on every issue: both are refused at load.
TEST(Rules, APatternAnchoredToTheTextOrMatchingAnEmptyTextIsRefused) {
  auto error = [](const std::string& pattern) {
    try {
      RuleSet::from_json_text(R"({"rules":[{"id":"x","axis":"symptom","category":"hang","pattern":")" +
                                  pattern + R"(","weight":1}]})",
                              "r.json");
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string anchored = "rules r.json: rule 'x': pattern holds to where a text starts or ends ('";
  EXPECT_EQ(error("^fixed by"), anchored + "^'); a rule matches anywhere in a line");
  EXPECT_EQ(error("hangs$"), anchored + "$'); a rule matches anywhere in a line");
  EXPECT_EQ(error("\\\\Ahang"), anchored + "\\A'); a rule matches anywhere in a line");
  EXPECT_EQ(error("hang\\\\z"), anchored + "\\z'); a rule matches anywhere in a line");
  EXPECT_EQ(error("(hang|)"),
            "rules r.json: rule 'x': pattern matches an empty text, so it would fire on every issue");
  // Not anchors: a caret or a dollar in a class, or escaped.
  EXPECT_EQ(error("stuck[^x]at|cost[$]|a\\\\^b|[]^]z|\\\\$5"), "");
}

TEST(Rules, BadEntriesAreRejectedWithTheRuleNamed) {
  auto error = [](const std::string& json) {
    try {
      RuleSet::from_json_text(json, "r.json");
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(
      error(R"({"rules":[{"id":"x","axis":"symptom","category":"explosion","pattern":"a","weight":1}]})"),
      "rules r.json: rule 'x': unknown symptom 'explosion'");
  EXPECT_EQ(error(R"({"rules":[{"id":"x","axis":"mood","category":"crash","pattern":"a","weight":1}]})"),
            "rules r.json: rule 'x': axis 'mood' must be 'symptom' or 'root_cause'");
  // A hand-edited file with a field twice would otherwise keep the last one silently.
  EXPECT_EQ(error(R"({"rules":[{"id":"x","axis":"symptom","category":"crash","pattern":"a","pattern":"b",)"
                  R"("weight":1}]})"),
            "rules r.json: the key 'pattern' appears twice in one object");
  EXPECT_NE(error(R"({"rules":[{"id":"x","axis":"symptom","category":"crash","pattern":"(a","weight":1}]})")
                .find("rule 'x': invalid pattern"),
            std::string::npos);
}

TEST(TextFeatures, VolatileDetailsAreMaskedAndWordsKept) {
  EXPECT_EQ(normalize_for_fasttext("Illegal access at 0x7ffd12 in /src/csrc/ops.cu line 57."),
            "illeg access at <hex> in <path> line <num>");
  EXPECT_EQ(normalize_for_fasttext("Call `tl.dot(a, b)` fails with CUDA 12.4"),
            "call <code> tl.dot a b fail with cuda <num>");
  EXPECT_EQ(normalize_for_fasttext("RuntimeError: CUDA error"), "runtimeerror cuda error");
}
