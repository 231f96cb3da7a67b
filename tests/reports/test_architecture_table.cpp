#include <gtest/gtest.h>

#include <algorithm>

#include "datasets/store/suite_store.hpp"
#include "reports/architecture_table.hpp"
#include "reports/tables.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;
using namespace faultline::reports;

namespace {

SuiteResult gpu(const std::string& id, const std::string& variant, const std::string& outcome,
                const std::string& cc) {
  SuiteResult r;
  r.repro_id = id;
  r.variant = variant;
  r.mode = "gpu";
  r.outcome = outcome;
  r.compute_capability = cc;
  return r;
}

void record_run(Database& db, const std::vector<SuiteResult>& results) {
  db.transaction([&] {
    int64_t id = start_suite_run(db, "gpu", 1);
    for (const auto& r : results) record_suite_result(db, id, r);
  });
}

}  // namespace

TEST(ArchitectureTable, TwoArchitecturesInTheStoreGiveOneColumnEach) {
  faultline::testing::TempDir dir;
  Database db(dir.file("s.db"));
  // An sm_80 array and an sm_90 array (two collected runs); smem reproduces only where its limit applies.
  record_run(db, {gpu("smem", "buggy", "skipped", "8.0"), gpu("smem", "fixed", "skipped", "8.0"),
                  gpu("int16", "buggy", "reproduced", "8.0"), gpu("int16", "fixed", "pass", "8.0")});
  record_run(db, {gpu("smem", "buggy", "reproduced", "9.0"), gpu("smem", "fixed", "fail", "9.0"),
                  gpu("int16", "buggy", "reproduced", "9.0")});
  // A host result carries no architecture and stays out.
  SuiteResult host = gpu("host-only", "buggy", "reproduced", "9.0");
  host.mode = "host";
  record_run(db, {host});
  ReportData data;
  data.gpu_results_by_architecture = latest_gpu_results_by_architecture(db);
  auto t = architecture_table(data);
  ASSERT_TRUE(t.has_value());
  std::vector<std::string> headings;
  for (const auto& c : t->columns) headings.push_back(c.heading);
  EXPECT_EQ(headings, (std::vector<std::string>{"reproducer", "sm_80 (8.0)", "sm_90 (9.0)"}));
  EXPECT_EQ(t->columns[2].id, "sm_90");
  // A report without it removes an earlier report's file of it.
  const auto& optional = optional_table_ids();
  EXPECT_NE(std::find(optional.begin(), optional.end(), t->id), optional.end()) << t->id;
  ASSERT_EQ(t->rows.size(), 2u);
  auto texts = [](const Row& r) {
    std::vector<std::string> out;
    for (const auto& v : r.values) out.push_back(v.text);
    return out;
  };
  // By hand, rows by id: int16 ran both variants on 8.0, only buggy on 9.0; smem skipped on 8.0.
  EXPECT_EQ(texts(t->rows[0]), (std::vector<std::string>{"int16", "reproduced / pass", "reproduced / -"}));
  EXPECT_EQ(texts(t->rows[1]), (std::vector<std::string>{"smem", "skipped / skipped", "reproduced / fail"}));
}

TEST(ArchitectureTable, OneArchitectureGivesNoTable) {
  faultline::testing::TempDir dir;
  Database db(dir.file("s.db"));
  record_run(db, {gpu("int16", "buggy", "reproduced", "9.0"), gpu("int16", "fixed", "pass", "9.0")});
  record_run(db, {gpu("int16", "buggy", "not-reproduced", "9.0")});  // a newer run on the same architecture
  ReportData data;
  data.gpu_results_by_architecture = latest_gpu_results_by_architecture(db);
  ASSERT_EQ(data.gpu_results_by_architecture.size(), 2u);
  EXPECT_EQ(data.gpu_results_by_architecture[0].outcome, "not-reproduced");  // the latest run's buggy result
  EXPECT_FALSE(architecture_table(data).has_value());
}
