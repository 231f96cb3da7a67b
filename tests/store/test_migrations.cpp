#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "common/error.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/migrations.hpp"
#include "datasets/store/prediction_store.hpp"
#include "tests/temp_dir.hpp"

using faultline::datasets::Database;
using faultline::datasets::latest_schema_version;

namespace {

std::vector<std::string> table_names(Database& db) {
  auto s = db.prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name");
  std::vector<std::string> names;
  while (s.step()) names.push_back(s.text(0));
  return names;
}

}  // namespace

TEST(Migrations, FreshDatabaseReachesLatestVersionWithWalAndForeignKeys) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  EXPECT_EQ(db.user_version(), latest_schema_version());
  auto mode = db.prepare("PRAGMA journal_mode");
  mode.step();
  EXPECT_EQ(mode.text(0), "wal");
  auto fk = db.prepare("PRAGMA foreign_keys");
  fk.step();
  EXPECT_EQ(fk.integer(0), 1);
}

TEST(Migrations, ReopeningIsIdempotent) {
  faultline::testing::TempDir dir;
  std::vector<std::string> first;
  {
    Database db(dir.file("store.db"));
    first = table_names(db);
  }
  Database again(dir.file("store.db"));
  EXPECT_EQ(again.user_version(), latest_schema_version());
  EXPECT_EQ(table_names(again), first);
}

TEST(Migrations, UpgradesAnOlderSchemaInPlaceKeepingItsData) {
  faultline::testing::TempDir dir;
  {
    Database old(dir.file("store.db"), 1);  // only the mined-data tables
    ASSERT_EQ(old.user_version(), 1);
    // Written as that schema's code wrote it (today's code expects today's tables).
    old.exec("INSERT INTO repositories(full_name) VALUES ('NVIDIA/cutlass')");
    old.exec(
        "INSERT INTO issues(repository_id, number, url, state, title) VALUES (1, 1270, "
        "'https://github.com/NVIDIA/cutlass/issues/1270', 'closed', 'TF32 result differs')");
    auto has = old.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name='final_labels'");
    has.step();
    EXPECT_EQ(has.integer(0), 0);
  }
  Database upgraded(dir.file("store.db"));
  EXPECT_EQ(upgraded.user_version(), latest_schema_version());
  EXPECT_EQ(faultline::datasets::count_issues(upgraded), 1);
  auto has = upgraded.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name='final_labels'");
  has.step();
  EXPECT_EQ(has.integer(0), 1);
}

TEST(Migrations, SamplesOfAVersionEightStoreSurviveTheCensusMigration) {
  faultline::testing::TempDir dir;
  int64_t id = 0;
  {
    Database old(dir.file("store.db"), 8);  // before a sample could be a census
    faultline::datasets::IssueRecord r;
    r.repo = "NVIDIA/cutlass";
    r.number = 7;
    r.url = "u";
    r.state = "closed";
    r.title = "crash";
    faultline::datasets::upsert_issue(old, r);
    id = *faultline::datasets::find_issue(old, "NVIDIA/cutlass", 7);
    old.prepare(
           "INSERT INTO samples(name, issue_id, status, origin, seed) VALUES ('main', ?, 'sampled', 'draw', "
           "7)")
        .bind_all(id)
        .run();
    EXPECT_THROW(old.exec("INSERT INTO samples(name, issue_id, status, origin, seed) VALUES ('c', " +
                          std::to_string(id) + ", 'sampled', 'census', 0)"),
                 faultline::Error);
  }
  Database upgraded(dir.file("store.db"));
  auto kept = upgraded.prepare("SELECT name, origin, seed FROM samples");
  ASSERT_TRUE(kept.step());
  EXPECT_EQ(kept.text(0), "main");
  EXPECT_EQ(kept.text(1), "draw");
  EXPECT_EQ(kept.integer(2), 7);
  upgraded.exec("INSERT INTO samples(name, issue_id, status, origin, seed) VALUES ('c', " +
                std::to_string(id) + ", 'sampled', 'census', 0)");
  EXPECT_THROW(upgraded.exec("INSERT INTO samples(name, issue_id, status, origin, seed) VALUES ('d', " +
                             std::to_string(id) + ", 'sampled', 'guess', 0)"),
               faultline::Error);
}

// A version-ten store may hold one former name as two aliases spelled in two cases, of two repositories:
// the one written last stays, and no second spelling can be added.
TEST(Migrations, AliasesOfOneNameInTwoCasesBecomeTheOneWrittenLast) {
  faultline::testing::TempDir dir;
  {
    Database old(dir.file("store.db"), 10);
    old.exec("INSERT INTO repositories(id, full_name) VALUES (1, 'o/new'), (2, 'p/other'), (3, 'q/r')");
    old.exec(
        "INSERT INTO repository_aliases(name, repository_id) VALUES ('O/OLD', 2), ('q/before', 3), "
        "('o/old', 1)");
  }
  Database upgraded(dir.file("store.db"));
  auto aliases = upgraded.prepare("SELECT name, repository_id FROM repository_aliases ORDER BY name");
  std::vector<std::pair<std::string, int64_t>> kept;
  while (aliases.step()) kept.emplace_back(aliases.text(0), aliases.integer(1));
  EXPECT_EQ(kept, (std::vector<std::pair<std::string, int64_t>>{{"o/old", 1}, {"q/before", 3}}));
  EXPECT_THROW(upgraded.exec("INSERT INTO repository_aliases(name, repository_id) VALUES ('O/Old', 2)"),
               faultline::Error);
}

// Predictions of a version-eleven store kept no thresholds: they read back as not recorded, and the export
// leaves the cells empty; a prediction written after the migration keeps its own.
TEST(Migrations, PredictionsStoredBeforeThresholdsReadBackWithoutThem) {
  faultline::testing::TempDir dir;
  {
    Database old(dir.file("store.db"), 11);
    old.exec("INSERT INTO repositories(id, full_name) VALUES (1, 'o/r')");
    old.exec(
        "INSERT INTO issues(id, repository_id, number, url, state, title) VALUES (1, 1, 7, 'u', 'open', "
        "'t')");
    old.exec(
        "INSERT INTO predictions(issue_id, model_version, scope, scope_p, symptom, symptom_p, root_cause, "
        "root_cause_p, abstain, predicted_at) VALUES (1, 'v', 'in', .9, 'crash', .8, 'api_misuse', .4, 1, "
        "'now')");
  }
  Database upgraded(dir.file("store.db"));
  auto p = faultline::datasets::find_prediction(upgraded, 1);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->root_cause_p, .4);
  EXPECT_FALSE(p->symptom_threshold);
  EXPECT_FALSE(p->root_cause_threshold);
  std::ostringstream csv;
  faultline::datasets::write_predictions(upgraded, csv, "csv");
  EXPECT_NE(csv.str().find(",symptom_threshold,root_cause_threshold,has_final_label\n"), std::string::npos)
      << csv.str();
  EXPECT_NE(csv.str().find(",[],,,0\n"), std::string::npos) << csv.str();

  // Written now: a threshold just above 1 (labels nothing) keeps the digits that say so.
  p->symptom_threshold = 0.9;
  p->root_cause_threshold = std::nextafter(1.0, 2.0);
  faultline::datasets::replace_predictions(upgraded, {*p});
  auto again = faultline::datasets::find_prediction(upgraded, 1);
  EXPECT_EQ(again->symptom_threshold, 0.9);
  EXPECT_EQ(again->root_cause_threshold, std::nextafter(1.0, 2.0));
  std::ostringstream jsonl;
  faultline::datasets::write_predictions(upgraded, jsonl, "jsonl");
  EXPECT_NE(jsonl.str().find("\"root_cause_threshold\":1.0000000000000002"), std::string::npos)
      << jsonl.str();
  EXPECT_NE(jsonl.str().find("\"symptom_threshold\":0.9"), std::string::npos) << jsonl.str();
  // A probability just under its threshold keeps its digits in the CSV too (at six places 0.8999999 would
  // read 0.900000, as if it reached 0.9).
  p->symptom_p = 0.8999999;
  faultline::datasets::replace_predictions(upgraded, {*p});
  std::ostringstream csv_now;
  faultline::datasets::write_predictions(upgraded, csv_now, "csv");
  EXPECT_NE(csv_now.str().find(",crash,0.8999999,api_misuse,0.4,1,[],0.9,1.0000000000000002,0\n"),
            std::string::npos)
      << csv_now.str();
}

TEST(Migrations, RefusesANewerSchema) {
  faultline::testing::TempDir dir;
  {
    Database db(dir.file("store.db"));
    db.exec("PRAGMA user_version=" + std::to_string(latest_schema_version() + 1));
  }
  EXPECT_THROW(Database(dir.file("store.db")), faultline::Error);
}

// Migration 14: validators of listing pages, which earlier miners kept for pages with more after them (a
// 304 there hid new entries), go; others stay.
TEST(Migrations, ListingValidatorsOfEarlierMinersAreDropped) {
  faultline::testing::TempDir dir;
  {
    Database old(dir.file("store.db"), 13);
    old.exec(
        "INSERT INTO http_cache(url, etag) VALUES "
        "('https://api.github.com/repos/o/r/"
        "issues?state=all&per_page=100&sort=updated&direction=asc&since=X', "
        "'a'), ('https://api.github.com/repos/o/r/issues/comments?per_page=100&sort=updated&direction=asc', "
        "'b'), "
        "('https://api.github.com/repos/o/r', 'c')");
  }
  Database upgraded(dir.file("store.db"));
  auto urls = upgraded.prepare("SELECT url FROM http_cache");
  std::vector<std::string> kept;
  while (urls.step()) kept.push_back(urls.text(0));
  EXPECT_EQ(kept, std::vector<std::string>{"https://api.github.com/repos/o/r"});
}

// Before migration 18 a failed audit left the final labels of the pass before it; the migration withdraws
// them where the latest audit failed, and keeps them where it passed (the trigger removed).
TEST(Migrations, FinalLabelsBehindAFailedLatestAuditAreWithdrawn) {
  namespace ds = faultline::datasets;
  for (const std::string latest : {"fail", "pass"}) {
    faultline::testing::TempDir dir;
    {
      Database old(dir.file("store.db"), 17);
      ds::IssueRecord r;
      r.repo = "o/r";
      r.number = 1;
      r.url = "u";
      r.state = "closed";
      r.title = "crash";
      ds::upsert_issue(old, r);
      const int64_t id = *ds::find_issue(old, "o/r", 1);
      ds::replace_final_labels(old, {{id, "crash", "api_misuse", "agreed", "a,b"}},
                               ds::record_audit(old, "a,b", 1, 0.9, 0.8, "pass"));
      ds::put_adjudication(old, {id, "carol", "crash", "api_misuse", "", "adj.csv"});
      ds::record_audit(old, "a,b", 1, latest == "fail" ? 0.1 : 0.9, 0.8, latest);
    }
    Database upgraded(dir.file("store.db"));
    EXPECT_EQ(ds::load_final_labels(upgraded).size(), latest == "fail" ? 0u : 1u) << latest;
    EXPECT_EQ(ds::load_adjudications(upgraded).size(), 1u) << latest;
  }
}
