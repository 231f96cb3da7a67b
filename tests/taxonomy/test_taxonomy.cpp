#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "taxonomy/taxonomy.hpp"

using faultline::Error;
using faultline::taxonomy::Taxonomy;
using nlohmann::json;

namespace {

json shipped() {
  std::ifstream in(std::string(FAULTLINE_SOURCE_DIR) + "/taxonomy/taxonomy.json");
  return json::parse(in);
}

std::string error_of(const json& doc) {
  try {
    Taxonomy::from_json_text(doc.dump(), "test.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Taxonomy, ShippedFileHasTheDesignIds) {
  const Taxonomy& t = Taxonomy::builtin();
  EXPECT_EQ(t.symptom_ids(),
            (std::vector<std::string>{"deployment_failure", "build_failure", "crash", "hang",
                                      "incorrect_functionality", "performance_degradation"}));
  EXPECT_EQ(t.root_cause_ids().size(), 15u);
  EXPECT_EQ(t.dimensions().size(), 3u);
  EXPECT_EQ(t.root_cause("api_misuse").dimension, "kernel_library");
  EXPECT_EQ(t.root_cause("build_misconfiguration").dimension, "compiler_build_system");
  EXPECT_EQ(t.root_cause("software_incompatibility").dimension, "runtime_environment");
  // Study Table III: 119 + 81 + 100 = 300.
  EXPECT_EQ(t.dimensions()[0].study_subtotal, 119);
  EXPECT_EQ(t.symptom("deployment_failure").study_count, 82);
}

TEST(Taxonomy, EveryCategoryHasDefinitionIncludesExcludesAndDecisionRules) {
  const Taxonomy& t = Taxonomy::builtin();
  auto check = [](const faultline::taxonomy::Category& c) {
    EXPECT_FALSE(c.definition.empty()) << c.id;
    EXPECT_FALSE(c.includes.empty()) << c.id;
    EXPECT_FALSE(c.excludes.empty()) << c.id;
    EXPECT_FALSE(c.decision_rules.empty()) << c.id;
  };
  for (const auto& c : t.symptoms()) check(c);
  for (const auto& c : t.root_causes()) check(c);
}

TEST(Taxonomy, RejectsDuplicateId) {
  json doc = shipped();
  doc["symptoms"][1]["id"] = "deployment_failure";
  EXPECT_NE(error_of(doc).find("duplicate category id 'deployment_failure'"), std::string::npos)
      << error_of(doc);
}

TEST(Taxonomy, RejectsRootCauseInTwoDimensions) {
  json doc = shipped();
  json moved = doc["dimensions"][0]["root_causes"][0];  // code_logic_error also under the second dimension
  doc["dimensions"][1]["root_causes"].push_back(moved);
  EXPECT_NE(error_of(doc).find("duplicate category id 'code_logic_error'"), std::string::npos)
      << error_of(doc);
}

TEST(Taxonomy, RejectsOrphanRootCause) {
  json doc = shipped();
  doc["root_causes"] = json::array({doc["dimensions"][0]["root_causes"][0]});
  EXPECT_NE(error_of(doc).find("orphan root causes"), std::string::npos) << error_of(doc);
}

TEST(Taxonomy, RejectsWrongSymptomTotal) {
  json doc = shipped();
  doc["symptoms"][0]["study_count"] = 81;  // 299 instead of 300
  EXPECT_NE(error_of(doc).find("symptom study counts sum to 299, expected the study total 300"),
            std::string::npos)
      << error_of(doc);
}

TEST(Taxonomy, RejectsWrongDimensionSubtotal) {
  json doc = shipped();
  doc["dimensions"][2]["root_causes"][0]["study_count"] = 25;  // hardware 24 -> 25: 101 != 100
  EXPECT_NE(error_of(doc).find("dimension 'runtime_environment' sum to 101, but its study_subtotal is 100"),
            std::string::npos)
      << error_of(doc);
}

TEST(Taxonomy, RejectsPerRepositoryCountsThatDoNotMatchTableOne) {
  json doc = shipped();
  doc["symptoms"][0]["study_count_by_repo"]["NVIDIA/cutlass"] = 7;
  doc["symptoms"][1]["study_count_by_repo"]["NVIDIA/cutlass"] = 21;  // totals unchanged, still 56
  EXPECT_EQ(error_of(doc), "");
  doc["symptoms"][1]["study_count_by_repo"]["NVIDIA/cutlass"] = 22;  // 57 != 56
  EXPECT_NE(error_of(doc).find("'NVIDIA/cutlass' sum to 57, but its final count is 56"), std::string::npos);
}

TEST(Taxonomy, RejectsAStudyRepositoryThatIsNotAGitHubName) {
  json doc = shipped();
  EXPECT_EQ(error_of(doc), "");
  doc["study"]["repositories"][0]["id"] = "flashinfer";
  EXPECT_EQ(error_of(doc),
            "taxonomy test.json: repo 'flashinfer' is not of the form OWNER/NAME (there is no '/')");
}

TEST(Taxonomy, RejectsAKeyTwiceInOneObject) {
  std::string text = shipped().dump();
  ASSERT_EQ(text.front(), '{');
  text.insert(1, "\"symptoms\": [],");  // the shipped document's own list follows: a second 'symptoms'
  try {
    Taxonomy::from_json_text(text, "test.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "taxonomy test.json: the key 'symptoms' appears twice in one object");
  }
}

TEST(Taxonomy, RejectsMalformedJsonWithOrigin) {
  try {
    Taxonomy::from_json_text("{\"symptoms\": [", "broken.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("taxonomy broken.json: not valid JSON"), std::string::npos);
  }
}
