// A repository's name in another case is the same repository (GitHub's names ignore case): the report
// shows a study repository under the study's spelling, and one repository stored under two spellings as
// one row.
#include <gtest/gtest.h>

#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "reports/report_data.hpp"
#include "reports/tables.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::reports;
namespace ds = faultline::datasets;

namespace {

struct Stored {
  std::string repo;
  int number;
};

// Each issue closed, a candidate, sampled and labeled (api_misuse), so that it is a case of the report.
void store_labeled(ds::Database& db, const std::vector<Stored>& issues) {
  std::vector<ds::ScreeningDecision> screening;
  std::vector<ds::SampleEntry> sample;
  std::vector<ds::FinalLabel> finals;
  for (const auto& [repo, number] : issues) {
    ds::IssueRecord r;
    r.repo = repo;
    r.number = number;
    r.url = "https://github.com/" + repo + "/issues/" + std::to_string(number);
    r.state = "closed";
    r.title = "crash";
    ds::upsert_issue(db, r);
    const int64_t id = *ds::find_issue(db, repo, number);
    screening.push_back({id, "candidate", "r"});
    sample.push_back({id, "sampled", "draw", {}, {}, 1});
    finals.push_back({id, "crash", "api_misuse", "agreed", "a,b"});
  }
  ds::replace_screening(db, screening);
  ds::replace_sample(db, "main", sample);
  ds::replace_final_labels(db, finals, ds::record_audit(db, "a,b", 1, 1.0, 0.8, "pass"));
}

// Repository id → (name people read, raw count) of the funnel table's data rows.
std::map<std::string, std::pair<std::string, long long>> funnel_rows(const ReportData& data) {
  const Table t = funnel_table(data);
  std::map<std::string, std::pair<std::string, long long>> out;
  for (const auto& row : t.rows) {
    if (row.kind != RowKind::data) continue;
    out[row.values[t.column("repository_id")].text] = {row.values[t.column("repository")].text,
                                                       row.values[t.column("raw")].count};
  }
  return out;
}

}  // namespace

TEST(ReportRepositorySpelling, AStudyRepositoryStoredInAnotherCaseIsReportedUnderTheStudysSpelling) {
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  store_labeled(db, {{"nvidia/CUTLASS", 1}, {"nvidia/CUTLASS", 2}});
  const auto data = load_report_data(db, ReportOptions{});
  ASSERT_EQ(data.cases.size(), 2u);
  for (const auto& c : data.cases) {
    EXPECT_EQ(c.repo, "NVIDIA/cutlass");
    EXPECT_EQ(c.issue.substr(0, 15), "nvidia/CUTLASS#");  // the issue is named as it is stored
  }
  ASSERT_EQ(data.funnel.rows.size(), 1u);
  EXPECT_EQ(data.funnel.rows[0].repo, "NVIDIA/cutlass");
  EXPECT_EQ(repository_order(data.cases).size(), 7u);  // the study's seven, no eighth
  EXPECT_EQ(funnel_rows(data),
            (std::map<std::string, std::pair<std::string, long long>>{{"NVIDIA/cutlass", {"CUTLASS", 2}}}));
}

// A store written before lookups ignored case can hold one repository in two rows, one per spelling.
TEST(ReportRepositorySpelling, TwoRowsOfOneRepositoryAreOneRowOfTheReport) {
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  db.exec(
      "INSERT INTO repositories(id, full_name) VALUES (1, 'nvidia/cutlass'), (2, 'NVIDIA/Cutlass'), "
      "(3, 'acme/Kernels'), (4, 'Acme/kernels')");
  store_labeled(db, {{"nvidia/cutlass", 1}, {"NVIDIA/Cutlass", 2}, {"acme/Kernels", 3}, {"Acme/kernels", 4}});
  const auto data = load_report_data(db, ReportOptions{});
  // Another repository goes under its first spelling in sorted order ('A' sorts before 'a').
  std::map<std::string, int> cases_by_repo;
  for (const auto& c : data.cases) ++cases_by_repo[c.repo];
  EXPECT_EQ(cases_by_repo, (std::map<std::string, int>{{"Acme/kernels", 2}, {"NVIDIA/cutlass", 2}}));
  ASSERT_EQ(data.funnel.rows.size(), 2u);
  for (const auto& row : data.funnel.rows) {
    EXPECT_EQ(row.raw, 2) << row.repo;
    EXPECT_EQ(row.candidates, 2) << row.repo;
    EXPECT_EQ(row.sampled, 2) << row.repo;
    EXPECT_EQ(row.labeled, 2) << row.repo;
  }
  const auto rows = funnel_rows(data);  // a repository without issues has no row
  EXPECT_EQ(rows, (std::map<std::string, std::pair<std::string, long long>>{
                      {"Acme/kernels", {"Acme/kernels", 2}}, {"NVIDIA/cutlass", {"CUTLASS", 2}}}));
}
