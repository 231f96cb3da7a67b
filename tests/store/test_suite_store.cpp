#include <gtest/gtest.h>

#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/suite_store.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;

namespace {

SuiteResult result(const std::string& id, const std::string& variant, const std::string& mode,
                   const std::string& outcome) {
  SuiteResult r;
  r.repro_id = id;
  r.variant = variant;
  r.mode = mode;
  r.outcome = outcome;
  r.detail = outcome + " detail";
  r.seconds = 0.5;
  return r;
}

int64_t run(Database& db, const std::vector<SuiteResult>& results, const std::string& mode = "auto") {
  int64_t id = 0;
  db.transaction([&] {
    id = start_suite_run(db, mode, 1);
    for (const auto& r : results) record_suite_result(db, id, r);
  });
  return id;
}

}  // namespace

TEST(SuiteStore, ResultsKeepStabilityAndTheEnvironmentTheyRanWith) {
  faultline::testing::TempDir dir;
  Database db(dir.file("s.db"));
  SuiteResult r = result("race", "buggy", "gpu", "reproduced");
  r.runs = 30;
  r.runs_as_expected = 11;
  r.stability = "flaky";
  r.cuda_toolkit = "13.0";
  r.driver = "580.159.03";
  r.compute_capability = "9.0";
  run(db, {r}, "gpu");
  EXPECT_EQ(latest_suite_results(db), std::vector<SuiteResult>{r});
}

TEST(SuiteStore, LatestResultIsTheNewestRunOfEachReproducerVariantAndMode) {
  faultline::testing::TempDir dir;
  Database db(dir.file("s.db"));
  // Run 1 covers a/host both variants and a/build/fixed; run 2 only a/host/fixed (now failing).
  run(db, {result("a", "buggy", "host", "reproduced"), result("a", "fixed", "host", "pass"),
           result("a", "fixed", "build", "built")});
  run(db, {result("a", "fixed", "host", "fail")});
  // By hand: a/build/fixed from run 1, a/host/buggy from run 1, a/host/fixed from run 2 (ordered by mode).
  auto latest = latest_suite_results(db);
  ASSERT_EQ(latest.size(), 3u);
  EXPECT_EQ(latest[0].mode + "/" + latest[0].variant + "=" + latest[0].outcome, "build/fixed=built");
  EXPECT_EQ(latest[1].mode + "/" + latest[1].variant + "=" + latest[1].outcome, "host/buggy=reproduced");
  EXPECT_EQ(latest[2].mode + "/" + latest[2].variant + "=" + latest[2].outcome, "host/fixed=fail");
}

TEST(SuiteStore, CatalogIsReplacedWholeAndKeepsSourceIssues) {
  faultline::testing::TempDir dir;
  Database db(dir.file("s.db"));
  std::vector<CatalogEntry> first{{"b", "t", "crash", "api_misuse", {"https://github.com/o/r/issues/1"}},
                                  {"a", "t", "hang", "concurrency_error", {}}};
  db.transaction([&] { replace_reproducer_catalog(db, first); });
  EXPECT_EQ(load_reproducer_catalog(db), (std::vector<CatalogEntry>{first[1], first[0]}));  // by id
  std::vector<CatalogEntry> second{{"c", "t", "crash", "api_misuse", {"u1", "u2"}}};
  db.transaction([&] { replace_reproducer_catalog(db, second); });
  EXPECT_EQ(load_reproducer_catalog(db), second);
}

TEST(SuiteStore, ManualLinksAreKeptOnceAndGoWithTheirIssue) {
  faultline::testing::TempDir dir;
  Database db(dir.file("s.db"));
  IssueRecord issue;
  issue.repo = "NVIDIA/cutlass";
  issue.number = 225;
  issue.url = "https://github.com/NVIDIA/cutlass/issues/225";
  issue.state = "closed";
  issue.title = "wrong sparse result";
  upsert_issue(db, issue);
  int64_t id = *find_issue(db, "NVIDIA/cutlass", 225);
  db.transaction([&] {
    link_reproducer(db, id, "metadata-layout-mismatch");
    link_reproducer(db, id, "metadata-layout-mismatch");
  });
  auto links = load_reproducer_links(db);
  EXPECT_EQ(links[id], std::vector<std::string>{"metadata-layout-mismatch"});
}

TEST(SuiteStore, UpgradeTurnsOldCompilePassesIntoBuiltAndKeepsChecks) {
  faultline::testing::TempDir dir;
  {
    Database old(dir.file("s.db"), 6);  // before outcomes had `built`
    old.exec("INSERT INTO suite_runs(id, mode, started_at) VALUES (1, 'build', 'x')");
    old.exec(
        "INSERT INTO suite_results(run_id, repro_id, variant, mode, outcome, detail) VALUES "
        "(1, 'a', 'buggy', 'build', 'pass', 'built 2 target(s)'), "
        "(1, 'b', 'fixed', 'build', 'pass', 'kernels/b/fixed.ptx contains /mul/'), "
        "(1, 'a', 'fixed', 'host', 'pass', 'ok')");
  }
  Database db(dir.file("s.db"));
  std::vector<std::string> outcomes;
  for (const auto& r : latest_suite_results(db))
    outcomes.push_back(r.repro_id + "/" + r.mode + "=" + r.outcome);
  // A plain compile becomes built; an inspected artifact and a host check stay what they were.
  EXPECT_EQ(outcomes, (std::vector<std::string>{"a/build=built", "a/host=pass", "b/build=pass"}));
  EXPECT_EQ(latest_suite_results(db)[0].compute_capability, "none");
}

TEST(SuiteStore, ACollectedResultKeepsItsNodeDeviceAndShard) {
  faultline::testing::TempDir dir;
  Database db(dir.file("s.db"));
  SuiteResult r = result("race", "buggy", "gpu", "lost");
  r.node = "gpu-node-3";
  r.device = "NVIDIA H100 80GB HBM3";
  r.shard = 2;
  SuiteResult local = result("race", "fixed", "gpu", "pass");  // a local suite's result has no shard
  db.transaction([&] {
    int64_t id = start_suite_run(db, "auto", 1, {"/shared/run", "sm_90"});
    record_suite_result(db, id, r);
    record_suite_result(db, id, local);
  });
  auto latest = latest_suite_results(db);
  ASSERT_EQ(latest.size(), 2u);
  EXPECT_EQ(latest[0], r);
  EXPECT_EQ(latest[1], local);
  EXPECT_FALSE(latest[1].shard.has_value());
  Statement s = db.prepare("SELECT slurm_run_dir, slurm_array FROM suite_runs");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.text(0) + " " + s.text(1), "/shared/run sm_90");
}

TEST(SuiteStore, SubmittedSlurmJobsAreKeptPerRunDirectoryInOrder) {
  faultline::testing::TempDir dir;
  Database db(dir.file("s.db"));
  db.transaction([&] {
    record_slurm_job(db, {"/shared/run", "sm_90", "101", "0-7%4"});
    record_slurm_job(db, {"/shared/other", "default", "102", "0-1"});
    record_slurm_job(db, {"/shared/run", "sm_90", "115", "3,5"});  // --rerun-lost
  });
  EXPECT_EQ(load_slurm_jobs(db, "/shared/run"),
            (std::vector<SlurmJob>{{"/shared/run", "sm_90", "101", "0-7%4"},
                                   {"/shared/run", "sm_90", "115", "3,5"}}));
}
