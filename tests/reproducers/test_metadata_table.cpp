#include <gtest/gtest.h>

#include "reproducers/manifest.hpp"
#include "reproducers/metadata_table.hpp"

using namespace faultline::reproducers;

namespace {

std::vector<Manifest> two_manifests() {
  return {
      parse_manifest(
          R"({"id": "a", "title": "t", "symptom": "build_failure", "root_cause": "improper_kernel_dispatch",
      "issues": ["https://github.com/NVIDIA/cutlass/issues/1268"], "fix": "cutlass#1300",
      "mechanism": "m", "requirements": {"min_compute_capability": "9.0"},
      "modes": {"build": {"buggy": {"expect": "fails", "target": "repro_x", "message": "static_assert|same type"},
                          "fixed": {"expect": "builds"}},
                "host": {"buggy": {"expect": "symptom", "modeled": "no race on one thread"},
                         "fixed": {"expect": "correct"}}}})",
          "a.json"),
      parse_manifest(R"({"id": "b", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
      "issues": [], "no_single_issue": "documented in the CUDA guide",
      "mechanism": "m", "requirements": {"min_compute_capability": "7.0"},
      "modes": {"gpu": {"buggy": {"expect": "symptom"}}}})",
                     "b.json")};
}

faultline::datasets::SuiteResult latest(const std::string& id, const std::string& mode,
                                        const std::string& variant, const std::string& outcome) {
  faultline::datasets::SuiteResult r;
  r.repro_id = id;
  r.mode = mode;
  r.variant = variant;
  r.outcome = outcome;
  return r;
}

}  // namespace

TEST(MetadataTable, RowsComeFromTheManifestsAndTheLatestResults) {
  auto rows = metadata_rows(
      two_manifests(), {latest("a", "build", "buggy", "reproduced"), latest("a", "build", "fixed", "built"),
                        latest("a", "host", "buggy", "modeled")});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].source, "https://github.com/NVIDIA/cutlass/issues/1268");
  EXPECT_EQ(rows[0].fix, "cutlass#1300");
  EXPECT_EQ(
      rows[0].checks,
      "build: buggy fails to build with /static_assert|same type/, fixed compiles; host: buggy: modeled (no "
      "race on one thread), fixed behaves correctly");
  EXPECT_EQ(rows[0].last_outcome, "build: reproduced/built; host: modeled/-");
  EXPECT_EQ(rows[1].source, "documented in the CUDA guide");
  EXPECT_EQ(rows[1].fix, "unknown");
  EXPECT_EQ(rows[1].last_outcome, "not run");
}

TEST(MetadataTable, MarkdownEscapesPipesAndCsvQuotesCommas) {
  auto rows = metadata_rows(two_manifests(), {});
  std::string md = metadata_markdown(rows);
  EXPECT_EQ(md.substr(0, md.find('\n')),
            "| id | symptom | root cause | source | fix | checks | last outcome |");
  EXPECT_NE(md.find("/static_assert\\|same type/"), std::string::npos) << md;
  // A carriage return, an escape or a backslash from a manifest neither breaks the row nor acts on a page.
  rows[1].fix = "see\r\x1b[2Jnotes\\n";
  md = metadata_markdown(rows);
  EXPECT_NE(md.find("| see [2Jnotes\\\\n |"), std::string::npos) << md;
  EXPECT_EQ(md.find('\r'), std::string::npos);
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  std::string csv = metadata_csv(rows);
  EXPECT_NE(csv.find("\"build: buggy fails to build with /static_assert|same type/, fixed compiles; host:"),
            std::string::npos)
      << csv;
  EXPECT_EQ(metadata_json(rows)[1]["source"], "documented in the CUDA guide");
}
