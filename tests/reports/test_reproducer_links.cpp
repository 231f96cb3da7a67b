#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/suite_store.hpp"
#include "reports/issue_view.hpp"
#include "reports/report_data.hpp"
#include "reports/table_display.hpp"
#include "reports/tables.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline;

namespace {

int64_t add_issue(datasets::Database& db, int64_t number) {
  datasets::IssueRecord issue;
  issue.repo = "NVIDIA/cutlass";
  issue.number = number;
  issue.url = "https://github.com/NVIDIA/cutlass/issues/" + std::to_string(number);
  issue.state = "closed";
  issue.title = "issue " + std::to_string(number);
  datasets::upsert_issue(db, issue);
  return *datasets::find_issue(db, issue.repo, number);
}

// Final labels on sampled candidates (a census of them), so the report counts every one.
void label_all(datasets::Database& db, const std::vector<std::pair<int64_t, std::string>>& labels) {
  db.transaction([&] {
    std::vector<datasets::ScreeningDecision> screened;
    std::vector<datasets::SampleEntry> sample;
    for (const auto& [id, root_cause] : labels) {
      screened.push_back({id, "candidate", "test"});
      sample.push_back({id, "sampled", "census", std::nullopt, std::nullopt, 0});
    }
    datasets::replace_screening(db, screened);
    datasets::replace_sample(db, "main", sample);
    int64_t audit = datasets::record_audit(db, "a,b", static_cast<int>(labels.size()), 1.0, 0.8, "pass");
    std::vector<datasets::FinalLabel> finals;
    for (const auto& [id, root_cause] : labels)
      finals.push_back({id, "incorrect_functionality", root_cause, "agreed", "a,b"});
    datasets::replace_final_labels(db, finals, audit);
  });
}

const std::vector<datasets::CatalogEntry> kCatalog{
    {"metadata-layout-mismatch",
     "t",
     "incorrect_functionality",
     "tensor_layout_mismatch",
     {"https://github.com/NVIDIA/cutlass/issues/225"}},
    {"tf32-vs-fp32-reference", "t", "incorrect_functionality", "incorrect_numerical_computation", {}}};

// The report's data with kCatalog as the manifests.
reports::ReportData report_of(datasets::Database& db) {
  reports::ReportOptions options;
  options.catalog = kCatalog;
  return reports::load_report_data(db, options);
}

// issue → "reproducer (how)", for every labeled case.
std::map<std::string, std::string> links(datasets::Database& db) {
  std::map<std::string, std::string> out;
  for (const auto& c : report_of(db).cases) {
    for (const auto& r : c.reproducers) out[c.issue] += r.id + " (" + r.how + ")";
  }
  return out;
}

}  // namespace

TEST(ReproducerLinks, TheSameStoreGivesTheSameLinksWhateverRanFirst) {
  // The order the first wave got wrong: the catalog was registered (repro list) before the issues were
  // imported, so the manifest's source issue #225 never became a link, and a later suite did not help. The
  // report now matches the manifests as they are (ReportOptions::catalog); what the store holds of a
  // catalog, and when it was written, changes nothing.
  faultline::testing::TempDir dir;
  datasets::Database late(dir.file("late.db"));
  late.transaction([&] { datasets::replace_reproducer_catalog(late, kCatalog); });
  int64_t a = add_issue(late, 225);
  int64_t b = add_issue(late, 1270);
  label_all(late, {{a, "tensor_layout_mismatch"}, {b, "incorrect_numerical_computation"}});
  auto before_suite = links(late);

  // By hand: #225 is named by metadata-layout-mismatch's manifest; #1270 only shares tf32's root cause.
  const std::map<std::string, std::string> expected{
      {"NVIDIA/cutlass#225", "metadata-layout-mismatch (source)"},
      {"NVIDIA/cutlass#1270", "tf32-vs-fp32-reference (related)"}};
  EXPECT_EQ(before_suite, expected);

  // What `suite` writes: the catalog again and its results. The links stay as they were.
  late.transaction([&] {
    datasets::replace_reproducer_catalog(late, kCatalog);
    int64_t run = datasets::start_suite_run(late, "host", 1);
    datasets::SuiteResult r;
    r.repro_id = "metadata-layout-mismatch";
    r.variant = "fixed";
    r.mode = "host";
    r.outcome = "pass";
    datasets::record_suite_result(late, run, r);
  });
  EXPECT_EQ(links(late), expected);

  // The other order: issues and labels first, then the catalog.
  datasets::Database early(dir.file("early.db"));
  int64_t c = add_issue(early, 225);
  int64_t d = add_issue(early, 1270);
  label_all(early, {{c, "tensor_layout_mismatch"}, {d, "incorrect_numerical_computation"}});
  early.transaction([&] { datasets::replace_reproducer_catalog(early, kCatalog); });
  EXPECT_EQ(links(early), expected);

  // A manual `faultline link` makes #1270 modeled-on too.
  early.transaction([&] { datasets::link_reproducer(early, d, "tf32-vs-fp32-reference"); });
  EXPECT_EQ(links(early)["NVIDIA/cutlass#1270"], "tf32-vs-fp32-reference (source)");
}

// A link to a reproducer the catalog does not hold (linked from another manifest folder, or since removed)
// has no row, page or result in the report: it is not counted as modeled on the case, and the coverage
// table says how many such links there are.
TEST(ReproducerLinks, ALinkToAReproducerNotInTheCatalogIsNotCountedButSaid) {
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("s.db"));
  int64_t a = add_issue(db, 1270);
  label_all(db, {{a, "incorrect_numerical_computation"}});
  db.transaction([&] {
    datasets::replace_reproducer_catalog(db, kCatalog);
    datasets::link_reproducer(db, a, "ghost-kernel");
  });
  EXPECT_EQ(links(db)["NVIDIA/cutlass#1270"], "tf32-vs-fp32-reference (related)");
  const auto data = report_of(db);
  EXPECT_EQ(data.links_to_unknown_reproducers, 1);
  const auto coverage = reports::reproducer_coverage_table(data);
  EXPECT_NE(coverage.note.find(
                "Not counted: 1 link of these cases to a reproducer that is not among the manifests."),
            std::string::npos)
      << coverage.note;
  // Linked to one the catalog holds as well: that one counts, the other is still said.
  db.transaction([&] { datasets::link_reproducer(db, a, "tf32-vs-fp32-reference"); });
  EXPECT_EQ(links(db)["NVIDIA/cutlass#1270"], "tf32-vs-fp32-reference (source)");
  EXPECT_EQ(report_of(db).links_to_unknown_reproducers, 1);
  // show names such a link apart, as not counted.
  const auto view = reports::load_issue_view(db, "NVIDIA/cutlass", 1270, kCatalog);
  EXPECT_EQ(view.unknown_links, std::vector<std::string>{"ghost-kernel"});
  EXPECT_NE(reports::issue_view_text(view).find(
                "reproducer: ghost-kernel (linked, but not among the reproducers' manifests: not counted)\n"),
            std::string::npos);
  EXPECT_EQ(reports::issue_view_json(view).at("unknown_links"), nlohmann::json::array({"ghost-kernel"}));
}

// The outcome that stands for a variant among its modes' latest results. Worked by hand: a skip never
// stands over a run; a GPU run stands over a host run; but a fixed variant that fails in any mode fails,
// since a fix is one that passes wherever it last ran. The buggy variant keeps the GPU's verdict: a host run
// may miss what a device shows.
TEST(ReproducerLinks, AFixedVariantFailingInAnyModeIsNotPassing) {
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("s.db"));
  int64_t a = add_issue(db, 1270);
  label_all(db, {{a, "incorrect_numerical_computation"}});
  auto run = [&](const std::string& mode, const std::string& variant, const std::string& outcome) {
    db.transaction([&] {
      datasets::SuiteResult r;
      r.repro_id = "tf32-vs-fp32-reference";
      r.variant = variant;
      r.mode = mode;
      r.outcome = outcome;
      datasets::record_suite_result(db, datasets::start_suite_run(db, mode, 1), r);
    });
  };
  auto status = [&] { return report_of(db).reproducers.at("tf32-vs-fp32-reference"); };
  auto passing = [&] {
    return reports::display_grid(reports::reproducer_coverage_table(report_of(db))).rows.back().back();
  };
  run("gpu", "fixed", "pass");
  run("gpu", "buggy", "reproduced");
  run("host", "fixed", "skipped");
  run("host", "buggy", "not-reproduced");
  EXPECT_EQ(status().fixed, "pass");
  EXPECT_EQ(status().buggy, "reproduced");
  EXPECT_EQ(passing(), "1");
  run("host", "fixed", "fail");  // newer than the GPU's pass
  EXPECT_EQ(status().fixed, "fail");
  EXPECT_EQ(passing(), "0");
  run("host", "fixed", "pass");  // mended: the latest host result passes again
  EXPECT_EQ(status().fixed, "pass");
  run("gpu", "fixed", "fail");
  EXPECT_EQ(status().fixed, "fail");
  EXPECT_EQ(status().fixed_mode, "gpu");
  EXPECT_EQ(status().buggy_mode, "gpu");  // not the host's, whose buggy run did not reproduce
  run("gpu", "fixed", "pass");
  run("host", "fixed", "lost");  // its Slurm shard never reported: the suite counts it a failure
  EXPECT_EQ(status().fixed, "lost");
  EXPECT_EQ(status().fixed_mode, "host");
}
