#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "classifier/annotation/label_audit.hpp"
#include "classifier/annotation/label_sheets.hpp"
#include "common/csv.hpp"
#include "common/error.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::annotation;
using namespace faultline::datasets;
namespace common = faultline::common;

namespace {

void add_issues(Database& db, int count) {
  for (int i = 1; i <= count; ++i) {
    IssueRecord r;
    r.repo = "a/b";
    r.number = i;
    r.url = "https://github.com/a/b/issues/" + std::to_string(i);
    r.state = "closed";
    r.title = "crash " + std::to_string(i);
    upsert_issue(db, r);
  }
}

const char* kHeader = "repo,number,rater,symptom,root_cause,note\n";

std::string import_error(Database& db, const std::string& path) {
  try {
    import_label_sheet(db, "alice", path);
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "";
}

int64_t count(Database& db, const std::string& table) {
  auto s = db.prepare("SELECT COUNT(*) FROM " + table);
  s.step();
  return s.integer(0);
}

}  // namespace

TEST(LabelImport, PartlyInvalidCsvChangesNothingAndNamesLineAndValue) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  add_issues(db, 3);
  auto path = dir.write(
      "a.csv", std::string(kHeader) + "a/b,1,alice,crash,api_misuse,\n" + "a/b,2,alice,crash,cosmic_rays,\n");
  // The message lists the ids a sheet may hold, so that a rater sees the spelling ("Hang" is not "hang").
  const std::string unknown = import_error(db, path);
  EXPECT_EQ(unknown.rfind(path + ":3: unknown root cause 'cosmic_rays' (the root causes: ", 0), 0u)
      << unknown;
  EXPECT_NE(unknown.find(", api_misuse"), std::string::npos) << unknown;
  dir.write("a.csv", std::string(kHeader) + "a/b,1,alice,crash,api_misuse,\na/b,1,alice,hang,api_misuse,\n");
  EXPECT_EQ(import_error(db, path), path + ":3: a/b#1 is labeled twice in this file");
  dir.write("a.csv", std::string(kHeader) + "a/b,1,alice,crash,api_misuse,\na/b,9,alice,hang,api_misuse,\n");
  EXPECT_EQ(import_error(db, path), path + ":3: issue a/b#9 is not in the store (import or mine it first)");
  // A number is decimal digits and nothing else: a sign or a space made it another number, or none.
  for (const std::string number : {"-1", "+1", " 1", "1.0", "0", "1e0", "x"}) {
    dir.write("a.csv", std::string(kHeader) + "a/b," + number + ",alice,crash,api_misuse,\n");
    EXPECT_EQ(import_error(db, path), path + ":2: number '" + number + "' is not an issue number");
  }
  dir.write("a.csv", std::string(kHeader) + "a/b,1,alice,crash,,\n");
  EXPECT_EQ(import_error(db, path),
            path + ":2: a label needs one symptom and one root cause; 'root_cause' is empty");
  dir.write("a.csv", std::string(kHeader) + "a/b,1,bob,crash,api_misuse,\n");
  EXPECT_EQ(import_error(db, path), path + ":2: the row is by rater 'bob', but the import is for 'alice'");
  dir.write("a.csv", std::string(kHeader) + "a/b,1,alice,crash,api_misuse,\n\"a/b,2\n");
  EXPECT_EQ(import_error(db, path), path + ":3: quoted field is never closed");
  dir.write("a.csv", "repo,number,symptom\n");
  EXPECT_EQ(import_error(db, path), path + ":1: the header lacks the column 'root_cause'");
  // A misspelt column would drop what it holds (every note) without a word; a column named twice would
  // leave one of its cells unread.
  dir.write("a.csv", "repo,number,rater,symptom,root_cause,notez\na/b,1,alice,crash,api_misuse,n\n");
  EXPECT_EQ(import_error(db, path),
            path +
                ":1: the header names the column 'notez', which faultline does not know (it reads repo, "
                "number, rater, symptom, root_cause, note; a sheet's url, title and text are for the "
                "rater); rename or remove it");
  // A header with a trailing comma (as spreadsheets save one) names no column: its cells must be empty.
  dir.write("a.csv", "repo;number;symptom;root_cause\na/b;1;crash;api_misuse\n");
  EXPECT_NE(
      import_error(db, path).find("the sheet seems separated by ';' or tabs: save it as comma-separated CSV"),
      std::string::npos);
  dir.write("a.csv", "repo,number,symptom,root_cause,\na/b,1,crash,api_misuse,stray\n");
  EXPECT_EQ(import_error(db, path),
            path + ":2: column 5 has no name in the header but holds 'stray'; name it or remove it");
  dir.write("a.csv", "repo,number,repo,symptom,root_cause\na/b,1,a/b,crash,api_misuse\n");
  EXPECT_EQ(import_error(db, path), path + ":1: the header names the column 'repo' twice");
  // The store keeps text up to a NUL: a note holding one is refused, not cut.
  dir.write("a.csv", std::string(kHeader) + "a/b,1,alice,crash,api_misuse,a" + std::string(1, '\0') + "b\n");
  EXPECT_EQ(import_error(db, path), path + ":2: a NUL byte (not a text file?)");
  // A sheet with no label in it, only its header or blank rows, records no batch.
  dir.write("a.csv", std::string(kHeader));
  EXPECT_EQ(import_error(db, path), path + ": no row holds a label (a header only); nothing imported");
  dir.write("a.csv", std::string(kHeader) + "a/b,1,alice,,,\na/b,2,,,,\n");
  EXPECT_EQ(import_error(db, path),
            path + ": no row holds a label (2 rows, symptom and root_cause empty in each); nothing imported");
  EXPECT_EQ(count(db, "manual_labels"), 0);
  EXPECT_EQ(count(db, "label_batches"), 0);
}

TEST(LabelImport, ValidSheetIsOneBatchAndBlankRowsAreSkipped) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  add_issues(db, 3);
  auto path = dir.write("a.csv",
                        "repo,number,url,title,text,symptom,root_cause,note\n"
                        "a/b,1,u,t,x,crash,api_misuse,n1\n"
                        "a/b,2,u,t,x,,,\n"
                        "a/b,3,u,t,x,hang,concurrency_error,\n");
  auto r = import_label_sheet(db, "alice", path);
  EXPECT_EQ(r.labeled, 2);
  EXPECT_EQ(r.skipped_blank, 1);
  auto labels = load_manual_labels(db, "alice");
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_EQ(labels[0].batch_id, r.batch_id);
  EXPECT_EQ(labels[1].root_cause, "concurrency_error");
}

namespace {

// `n` issues labeled by alice and bob: crash/api_misuse up to issue `alice_crashes` (`bob_crashes`), then
// hang/api_misuse.
void crashes_then_hangs(faultline::testing::TempDir& dir, Database& db, int n, int alice_crashes,
                        int bob_crashes) {
  add_issues(db, n);
  std::string a = kHeader, b = kHeader;
  for (int i = 1; i <= n; ++i) {
    a += "a/b," + std::to_string(i) + ",alice," + (i <= alice_crashes ? "crash" : "hang") + ",api_misuse,\n";
    b += "a/b," + std::to_string(i) + ",bob," + (i <= bob_crashes ? "crash" : "hang") + ",api_misuse,\n";
  }
  import_label_sheet(db, "alice", dir.write("a.csv", a));
  import_label_sheet(db, "bob", dir.write("b.csv", b));
}

// Ten issues; bob disagrees with alice on issue 10 only (root cause). Hand-worked joint kappa:
// alice's joint labels: 5× crash/api_misuse (1-5), 5× hang/concurrency_error (6-10);
// bob: same but issue 10 = hang/state_mismanagement. p_o = .9;
// p_e = (.5)(.5) + (.5)(.4) + 0 = .45; kappa = (.9 - .45)/(.55) = 0.8181818.
void two_raters(faultline::testing::TempDir& dir, Database& db) {
  add_issues(db, 10);
  std::string a = kHeader, b = kHeader;
  for (int i = 1; i <= 10; ++i) {
    std::string label = i <= 5 ? "crash,api_misuse" : "hang,concurrency_error";
    a += "a/b," + std::to_string(i) + ",alice," + label + ",\n";
    std::string other = i == 10 ? "hang,state_mismanagement" : label;
    b += "a/b," + std::to_string(i) + ",bob," + other + ",\n";
  }
  import_label_sheet(db, "alice", dir.write("a.csv", a));
  import_label_sheet(db, "bob", dir.write("b.csv", b));
}

}  // namespace

TEST(Audit, PassingGatePromotesAgreedLabelsAndKeepsDisagreementPending) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  auto audit = run_audit(db, {"alice", "bob"}, 0.8);
  EXPECT_EQ(audit.n, 10);
  EXPECT_NEAR(audit.joint.kappa, 0.45 / 0.55, 1e-12);
  EXPECT_DOUBLE_EQ(audit.symptom.kappa, 1.0);
  EXPECT_EQ(audit.gate, "pass");
  EXPECT_EQ(audit.promoted_agreed, 9);
  ASSERT_EQ(audit.pending.size(), 1u);
  EXPECT_EQ(audit.pending[0], "a/b#10");
  EXPECT_EQ(load_final_labels(db).size(), 9u);

  // The final labels exported (their provenance in the rater column) are not adjudications.
  try {
    import_adjudications(db,
                         dir.write("final.csv", std::string(kHeader) + "a/b,1,agreed,crash,api_misuse,\n"));
    ADD_FAILURE() << "imported";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find(":2: the rater column says 'agreed'"), std::string::npos)
        << e.what();
  }
  // An adjudication sheet with nothing settled in it is refused, and the audit is not re-run.
  const std::string unsettled = dir.write("unsettled.csv", std::string(kHeader) + "a/b,10,carol,,,\n");
  EXPECT_THROW(import_adjudications(db, unsettled), faultline::Error);
  EXPECT_EQ(count(db, "audits"), 1);
  // Adjudicating issue 10 re-runs the audit and promotes it with its provenance.
  auto adj = import_adjudications(
      db, dir.write("adj.csv", std::string(kHeader) + "a/b,10,carol,hang,concurrency_error,settled\n"));
  EXPECT_EQ(adj.imported, 1);
  ASSERT_TRUE(adj.audit);
  EXPECT_TRUE(adj.audit.value().pending.empty());
  auto finals = load_final_labels(db);
  ASSERT_EQ(finals.size(), 10u);
  auto ten = finals[*find_issue(db, "a/b", 10)];
  EXPECT_EQ(ten.provenance, "adjudicated");
  EXPECT_EQ(ten.root_cause, "concurrency_error");
  EXPECT_EQ(ten.raters, "alice,bob+carol");
}

// An adjudicator may settle any issue. Of three adjudications, one sets other labels than both raters gave
// issue 2 (crash/api_misuse): only that one overrules an agreement. Issue 3 is confirmed as agreed, and
// issue 10 was a disagreement.
TEST(Audit, AnAdjudicationThatOverrulesAnAgreementIsNamed) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  EXPECT_TRUE(run_audit(db, {"alice", "bob"}, 0.8).overruled_agreements.empty());
  auto adj = import_adjudications(
      db, dir.write("adj.csv", std::string(kHeader) + "a/b,2,carol,hang,api_misuse,\n"
                                                      "a/b,3,carol,crash,api_misuse,\n"
                                                      "a/b,10,carol,hang,concurrency_error,\n"));
  EXPECT_EQ(adj.audit.value().overruled_agreements, (std::vector<std::string>{"a/b#2"}));
  EXPECT_EQ(audit_json(adj.audit.value()).at("overruled_agreements"), nlohmann::json::array({"a/b#2"}));
  EXPECT_EQ(adj.audit.value().promoted_adjudicated, 3);
  EXPECT_EQ(load_final_labels(db)[*find_issue(db, "a/b", 2)].symptom, "hang");
}

TEST(Audit, AFailingGateWithdrawsTheFinalLabelsAndAPassingOneBringsThemBack) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  import_adjudications(db,
                       dir.write("adj.csv", std::string(kHeader) + "a/b,10,carol,hang,concurrency_error,\n"));
  const auto passed = run_audit(db, {"alice", "bob"}, 0.8);
  EXPECT_EQ(load_final_labels(db).size(), 10u);  // 9 agreed + issue 10 adjudicated
  EXPECT_EQ(audit_of_final_labels(db)->id, passed.audit_id);

  auto audit = run_audit(db, {"alice", "bob"}, 0.9);  // 0.818 < 0.9
  EXPECT_EQ(audit.gate, "fail");
  EXPECT_NE(audit.gate_reason.find("kappa 0.818 is below the threshold 0.9:"), std::string::npos)
      << audit.gate_reason;
  EXPECT_EQ(audit.withdrawn, 10);
  EXPECT_EQ(audit_json(audit).at("withdrawn"), 10);
  EXPECT_TRUE(load_final_labels(db).empty());
  EXPECT_FALSE(audit_of_final_labels(db));       // no labels, so no audit behind them
  EXPECT_EQ(load_adjudications(db).size(), 1u);  // what a person settled is kept

  // The trigger removed: passing again promotes the same ten, the adjudication with them.
  const auto again = run_audit(db, {"alice", "bob"}, 0.8);
  EXPECT_EQ(again.withdrawn, 0);
  EXPECT_EQ(load_final_labels(db).size(), 10u);
  EXPECT_EQ(audit_of_final_labels(db)->id, again.audit_id);
}

// The final labels are the latest audit's: one that passes over other raters counts what it takes back.
TEST(Audit, APassingAuditCountsTheFinalLabelsItNoLongerHolds) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  EXPECT_EQ(run_audit(db, {"alice", "bob"}, 0.8).withdrawn, 0);  // none final before
  // The trigger removed: the same audit again holds the same nine, and takes none back.
  EXPECT_EQ(run_audit(db, {"alice", "bob"}, 0.8).withdrawn, 0);
  // carol and dave label issues 1 and 6 alike (two labels, so kappa is 1): two final labels, seven of
  // alice's and bob's nine taken back.
  for (const std::string rater : {"carol", "dave"}) {
    import_label_sheet(
        db, rater,
        dir.write(rater + ".csv", std::string(kHeader) + "a/b,1," + rater + ",crash,api_misuse,\n" +
                                      "a/b,6," + rater + ",hang,concurrency_error,\n"));
  }
  const auto other = run_audit(db, {"carol", "dave"}, 0.8);
  EXPECT_EQ(other.gate, "pass");
  EXPECT_EQ(other.promoted_agreed, 2);
  EXPECT_EQ(other.withdrawn, 7);
  EXPECT_EQ(audit_json(other).at("withdrawn"), 7);
  EXPECT_EQ(load_final_labels(db).size(), 2u);
}

// Kappa is 0/0 when chance explains all agreement (every label one and the same): no gate can pass on it.
TEST(Audit, AnAuditWhoseEveryLabelIsOneAndTheSameIsRefusedAndRecordsNothing) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  run_audit(db, {"alice", "bob"}, 0.8);
  for (const std::string rater : {"carol", "dave"}) {
    import_label_sheet(
        db, rater,
        dir.write(rater + ".csv", std::string(kHeader) + "a/b,1," + rater + ",crash,api_misuse,\n" +
                                      "a/b,2," + rater + ",crash,api_misuse,\n"));
  }
  try {
    run_audit(db, {"carol", "dave"}, 0.8);
    ADD_FAILURE() << "an audit of one label passed its gate";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("kappa is undefined"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(crash/api_misuse)"), std::string::npos) << e.what();
  }
  EXPECT_EQ(count(db, "audits"), 1);
  EXPECT_EQ(load_final_labels(db).size(), 9u);  // alice's and bob's, untouched
  // So with three raters (Fleiss' kappa).
  import_label_sheet(db, "erin",
                     dir.write("erin.csv", std::string(kHeader) + "a/b,1,erin,crash,api_misuse,\n"
                                                                  "a/b,2,erin,crash,api_misuse,\n"));
  EXPECT_THROW(run_audit(db, {"carol", "dave", "erin"}, 0.8), faultline::Error);
  // The trigger removed: dave labels issue 2 otherwise, and the audit is scored and recorded.
  import_label_sheet(db, "dave",
                     dir.write("dave2.csv", std::string(kHeader) + "a/b,1,dave,crash,api_misuse,\n"
                                                                   "a/b,2,dave,hang,api_misuse,\n"));
  const auto scored = run_audit(db, {"carol", "dave"}, 0.0);
  EXPECT_TRUE(scored.joint.defined);
  EXPECT_EQ(count(db, "audits"), 2);
}

// Six issues, two joint labels: alice A A A B B B, bob A A A A B B (A = crash/api_misuse, B =
// hang/api_misuse). p_o = 5/6, p_e = (3/6)(4/6) + (3/6)(2/6) = 1/2, kappa = (5/6 - 1/2) / (1/2) = 2/3.
TEST(Audit, TheGateSaysKappaWithTheDigitsThatTellItFromTheThreshold) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  crashes_then_hangs(dir, db, 6, 3, 4);
  // 0.666667 rounds to 0.667, which is not below 0.6667: five decimals are the first that are.
  const auto under = run_audit(db, {"alice", "bob"}, 0.6667);
  EXPECT_EQ(under.gate, "fail");
  EXPECT_NE(under.gate_reason.find("kappa 0.66667 is below the threshold 0.6667:"), std::string::npos)
      << under.gate_reason;
  // Where three decimals tell them apart, three are written.
  const auto over = run_audit(db, {"alice", "bob"}, 0.66);
  EXPECT_EQ(over.gate, "pass");
  EXPECT_EQ(over.gate_reason, "kappa 0.667 reaches the threshold 0.66");
}

// Twelve issues, A = crash/api_misuse, B = hang/api_misuse: alice 8 A then 4 B, bob the same but issue 9
// A. p_o = 11/12, p_e = (8/12)(9/12) + (4/12)(3/12) = 7/12, kappa = (4/12) / (5/12) = 4/5 exactly, which
// the division gives as 0.7999999999999999: a threshold of 0.8 is reached.
TEST(Audit, AKappaEqualToTheThresholdReachesIt) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  crashes_then_hangs(dir, db, 12, 8, 9);
  const auto at = run_audit(db, {"alice", "bob"}, 0.8);
  EXPECT_NEAR(at.joint.kappa, 0.8, 1e-12);
  EXPECT_EQ(at.gate, "pass");
  EXPECT_EQ(at.gate_reason, "kappa 0.800 reaches the threshold 0.8");
  // The trigger removed: a threshold a hair above, written as it was given, also past the rounding
  // (0.8000000000009 passed as "0.800000000 reaches the threshold 0.8000000000009").
  const auto above = run_audit(db, {"alice", "bob"}, 0.8000001);
  EXPECT_EQ(above.gate, "fail");
  EXPECT_NE(above.gate_reason.find("kappa 0.800 is below the threshold 0.8000001:"), std::string::npos)
      << above.gate_reason;
  EXPECT_EQ(run_audit(db, {"alice", "bob"}, 0.8000000000009).gate, "fail");
}

TEST(Audit, ARatersReimportRunsTheLatestAuditAgainWhenItCountsThatRater) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  run_audit(db, {"alice", "bob"}, 0.8);
  ASSERT_EQ(load_final_labels(db).size(), 9u);
  // bob relabels issue 1 (alice: crash/api_misuse): issues 2-9 agree, p_o = .8; joint labels alice vs bob:
  // crash/api 5 vs 4, hang/conc 5 vs 4, hang/state 0 vs 1, hang/api 0 vs 1, so p_e = (.5)(.4) + (.5)(.4) =
  // .4 and kappa = (.8 - .4)/.6 = 0.667, under the 0.8 gate.
  std::string b = kHeader;
  b += "a/b,1,bob,hang,api_misuse,\n";
  auto imported = import_rater_labels(db, "bob", dir.write("b2.csv", b));
  ASSERT_TRUE(imported.audit);
  EXPECT_NEAR(imported.audit->joint.kappa, 0.4 / 0.6, 1e-12);
  EXPECT_EQ(imported.audit->gate, "fail");
  EXPECT_EQ(imported.audit->withdrawn, 9);
  EXPECT_TRUE(load_final_labels(db).empty());
  // A rater the latest audit did not count: nothing is audited again.
  add_issues(db, 11);
  auto carol = import_rater_labels(
      db, "carol", dir.write("c.csv", std::string(kHeader) + "a/b,11,carol,crash,api_misuse,\n"));
  EXPECT_FALSE(carol.audit);
  EXPECT_EQ(carol.labels.labeled, 1);
}

// The import and the audit it runs again commit together: an audit that fails to run (here the latest one
// names a rater with no labels, as a store edited by hand might) takes the import back with it. Before, the
// labels were committed first, so a kill or a full disk in the audit left final labels "agreed" on labels
// a rater had changed.
// A rater takes labels back by importing their whole sheet with `replace`: the issues it leaves blank, or
// does not list, lose this rater's label; without it, a blank row is skipped and the old label stays.
TEST(LabelImport, AReplacingSheetWithdrawsTheRatersLabelsOfIssuesItDoesNotLabel) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  run_audit(db, {"alice", "bob"}, 0.8);
  std::string sheet = kHeader;  // issues 1-8 as before, 9 blank, 10 not listed
  for (int i = 1; i <= 8; ++i)
    sheet += "a/b," + std::to_string(i) + ",alice," +
             (i <= 5 ? "crash,api_misuse" : "hang,concurrency_error") + ",\n";
  sheet += "a/b,9,alice,,,\n";
  const std::string path = dir.write("a2.csv", sheet);
  const auto kept = import_rater_labels(db, "alice", path);
  EXPECT_EQ(kept.labels.withdrawn, 0);
  EXPECT_EQ(load_manual_labels(db, "alice").size(), 10u);
  const auto replaced = import_rater_labels(db, "alice", path, /*replace=*/true);
  EXPECT_EQ(replaced.labels.labeled, 8);
  EXPECT_EQ(replaced.labels.withdrawn, 2);
  EXPECT_EQ(load_manual_labels(db, "alice").size(), 8u);
  EXPECT_EQ(load_manual_labels(db, "bob").size(), 10u);  // another rater's are untouched
  // The audit run again in the same transaction: 9 and 10 are now labeled by bob alone, so pending.
  ASSERT_TRUE(replaced.audit);
  EXPECT_EQ(replaced.audit->n, 8);
  EXPECT_EQ(replaced.audit->partially_labeled, (std::vector<std::string>{"a/b#9", "a/b#10"}));
  EXPECT_EQ(load_final_labels(db).size(), 8u);
}

TEST(LabelImport, AnImportAndTheAuditItRunsAgainCommitTogetherOrNotAtAll) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  run_audit(db, {"alice", "bob"}, 0.8);
  const auto finals = load_final_labels(db).size();
  record_audit(db, "alice,zed", 10, 1.0, 0.8, "pass");  // zed has no labels: running it again throws
  const int64_t batches = count(db, "label_batches");
  const std::string relabel = dir.write("a2.csv", std::string(kHeader) + "a/b,1,alice,hang,api_misuse,\n");
  try {
    import_rater_labels(db, "alice", relabel);
    ADD_FAILURE() << "imported";
  } catch (const faultline::Error& e) {  // it says the import did not happen, and why
    EXPECT_EQ(std::string(e.what()),
              "label import: nothing was imported: running the latest audit (alice,zed) again with "
              "these labels failed: audit: rater 'zed' has no labels in the store");
  }
  EXPECT_EQ(count(db, "label_batches"), batches);
  EXPECT_EQ(load_manual_labels(db, "alice")[0].symptom, "crash");
  EXPECT_THROW(import_adjudications(
                   db, dir.write("adj.csv", std::string(kHeader) + "a/b,10,carol,hang,concurrency_error,\n")),
               faultline::Error);
  EXPECT_EQ(count(db, "adjudications"), 0);
  EXPECT_EQ(load_final_labels(db).size(), finals);
  // The trigger removed (an audit of raters with labels last): both commit, with their audit.
  record_audit(db, "alice,bob", 10, 1.0, 0.8, "pass");
  EXPECT_TRUE(import_rater_labels(db, "alice", relabel).audit);
  EXPECT_EQ(load_manual_labels(db, "alice")[0].symptom, "hang");
}

TEST(LabelImport, ARaterNamedAsAStoredOneInAnotherCaseOrWithSpacesIsRefused) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  const std::string sheet = dir.write("a.csv", std::string(kHeader) + "a/b,1,,crash,api_misuse,\n");
  // Another case, spaces at an edge (ASCII, no-break, zero-width), letters outside ASCII (whose case a
  // byte comparison cannot fold), a comma, two spaces running.
  for (const std::string name :
       {"Alice", "ALICE", "alice ", " bob", "alice\u00a0", "alice\u200b", "zo\u00eb", "a,b", "two  spaces"}) {
    try {
      import_label_sheet(db, name, sheet);
      ADD_FAILURE() << "imported as '" << name << "'";
    } catch (const faultline::Error& e) {
      EXPECT_TRUE(std::string(e.what()).find("only in case") != std::string::npos ||
                  std::string(e.what()).find("is not a name a new rater may have") != std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(list_raters(db), (std::vector<std::string>{"alice", "bob"}));
  // The same name as stored, and new ones of the allowed characters, import.
  EXPECT_EQ(import_label_sheet(db, "alice", sheet).labeled, 1);
  EXPECT_EQ(import_label_sheet(db, "alicia", sheet).labeled, 1);
  EXPECT_EQ(import_label_sheet(db, "Dr. K-9_b", sheet).labeled, 1);
  // A store from before the check may hold two spellings: each still imports under its own.
  put_manual_label(db, {*find_issue(db, "a/b", 2), "Bob", "crash", "api_misuse", "",
                        create_label_batch(db, "Bob", "old.csv")});
  EXPECT_EQ(import_label_sheet(db, "bob", sheet).labeled, 1);
  EXPECT_EQ(import_label_sheet(db, "Bob", sheet).labeled, 1);
}

// The final labels exported (their provenance in the rater column) and imported as a rater named after that
// provenance would be a second rater agreeing with every final label: kappa 1 by construction.
TEST(LabelImport, ARaterOrAdjudicatorNamedAsAFinalLabelsProvenanceOrOutsideTheRuleIsRefused) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  for (const std::string name : {"agreed", "Adjudicated"}) {
    const std::string sheet =
        dir.write("f.csv", std::string(kHeader) + "a/b,1," + name + ",crash,api_misuse,\n");
    try {
      import_label_sheet(db, name, sheet);
      ADD_FAILURE() << "imported as '" << name << "'";
    } catch (const faultline::Error& e) {
      EXPECT_NE(std::string(e.what()).find("is the provenance of a final label"), std::string::npos)
          << e.what();
    }
    EXPECT_THROW(require_rater_name(db, name, "label export"), faultline::Error);
  }
  // The trigger removed: a name that only starts so is a rater's.
  EXPECT_NO_THROW(require_rater_name(db, "agreed-with-bob", "label export"));
  EXPECT_THROW(require_rater_name(db, "r\u00e1ter =1", "label export"), faultline::Error);
  EXPECT_EQ(list_raters(db), (std::vector<std::string>{"alice", "bob"}));
  // An adjudicator's name keeps the same rule: an escape, a right-to-left override or a comma is refused, and
  // the store is left as it was.
  for (const std::string name : {"car\x1b[31mol", "car\u202eol", "carol,dave"}) {
    const std::string sheet =
        dir.write("adj.csv", std::string(kHeader) + "a/b,10,\"" + name + "\",hang,api_misuse,\n");
    try {
      import_adjudications(db, sheet);
      ADD_FAILURE() << "adjudicated by '" << name << "'";
    } catch (const faultline::Error& e) {
      EXPECT_NE(std::string(e.what()).find(sheet + ":2: the adjudicator '"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(load_adjudications(db).empty());
  import_adjudications(db, dir.write("adj.csv", std::string(kHeader) + "a/b,10,carol,hang,api_misuse,\n"));
  EXPECT_EQ(load_adjudications(db).at(*find_issue(db, "a/b", 10)).adjudicator, "carol");
}

TEST(Audit, AnAdjudicationOfAnIssueNoRaterLabeledBecomesFinal) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  add_issues(db, 12);
  run_audit(db, {"alice", "bob"}, 0.8);
  auto adj = import_adjudications(
      db, dir.write("adj.csv", std::string(kHeader) + "a/b,12,carol,hang,api_misuse,\n"));
  EXPECT_EQ(adj.audit.value().promoted_adjudicated, 1);
  const auto finals = load_final_labels(db);
  ASSERT_EQ(finals.size(), 10u);  // 9 agreed + issue 12
  const auto twelve = finals.at(*find_issue(db, "a/b", 12));
  EXPECT_EQ(twelve.provenance, "adjudicated");
  EXPECT_EQ(twelve.raters, "carol");
  EXPECT_EQ(twelve.root_cause, "api_misuse");
  // The provenance of an exported final label is refused in any case.
  EXPECT_THROW(
      import_adjudications(db, dir.write("f.csv", std::string(kHeader) + "a/b,1,Agreed,crash,api_misuse,\n")),
      faultline::Error);
}

TEST(Audit, ManualLabelsAreUntouchedByPredictions) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  run_audit(db, {"alice", "bob"}, 0.8);
  int64_t one = *find_issue(db, "a/b", 1);
  replace_predictions(db, {{one, "v1", "in", 0.9, "hang", 0.9, "performance_bug", 0.9, false, "[]",
                            std::nullopt, std::nullopt}});
  // The prediction was written (so the check below could see an overwrite)...
  EXPECT_EQ(load_predictions(db)[one].symptom, "hang");
  // ...and the final label of the same issue is the raters' one.
  EXPECT_EQ(load_final_labels(db)[one].symptom, "crash");
  // The export of predictions marks the issue whose final label is in force, and only it.
  const int64_t ten = *find_issue(db, "a/b", 10);  // bob and alice disagree on it: no final label
  replace_predictions(db, {load_predictions(db)[one],
                           {ten, "v1", "in", 0.9, "hang", 0.9, "performance_bug", 0.9, false, "[]",
                            std::nullopt, std::nullopt}});
  std::ostringstream csv, jsonl;
  write_predictions(db, csv, "csv");
  write_predictions(db, jsonl, "jsonl");
  EXPECT_NE(csv.str().find("\na/b,1,v1,in,0.9,hang,0.9,performance_bug,0.9,0,[],,,1\n"), std::string::npos)
      << csv.str();
  EXPECT_NE(csv.str().find("\na/b,10,v1,in,0.9,hang,0.9,performance_bug,0.9,0,[],,,0\n"), std::string::npos)
      << csv.str();
  std::istringstream lines(jsonl.str());
  std::string line;
  std::vector<bool> labeled;
  while (std::getline(lines, line)) labeled.push_back(nlohmann::json::parse(line).at("has_final_label"));
  EXPECT_EQ(labeled, (std::vector<bool>{true, false}));
}

TEST(Audit, ThreeRatersUseFleiss) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  std::string c = kHeader;
  for (int i = 1; i <= 10; ++i) {
    c += "a/b," + std::to_string(i) + ",carol," + (i <= 5 ? "crash,api_misuse" : "hang,concurrency_error") +
         ",\n";
  }
  import_label_sheet(db, "carol", dir.write("c.csv", c));
  auto audit = run_audit(db, {}, 0.8);
  // Items 1-9: all three agree (P_i = 1); item 10: two of three agree (P_i = 1/3) → P̄ = (9 + 1/3)/10 =
  // 0.9333. Totals over 30 ratings: crash/api 15, hang/conc 14, hang/state 1 → P̄e = (.5)^2 + (14/30)^2 +
  // (1/30)^2 = .25 + .217778 + .001111 = .468889; kappa = (.933333 - .468889)/(.531111) = 0.874477.
  EXPECT_NEAR(audit.fleiss_joint, 0.874477, 1e-5);
  EXPECT_EQ(audit.gate, "pass");
  // Cohen's figures are of the first two raters (by name, as --raters was not given), and say so.
  EXPECT_EQ(audit_json(audit).at("cohen_raters"), nlohmann::json::array({"alice", "bob"}));
  EXPECT_NEAR(audit.joint.kappa, 0.45 / 0.55, 1e-12);
}

TEST(LabelExport, SheetHoldsTheSampleWithEmptyLabelColumns) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  add_issues(db, 5);
  replace_sample(db, "s",
                 {{*find_issue(db, "a/b", 2), "sampled", "draw", {}, {}, 1},
                  {*find_issue(db, "a/b", 4), "excluded", "draw", std::string("dup"), {}, 1}});
  std::ostringstream out;
  EXPECT_EQ(export_label_sheet(db, out, SheetSelection::kSample, "s"), 1);
  auto rows = common::parse_csv(out.str(), "sheet");
  ASSERT_EQ(rows.size(), 2u);  // header + issue 2 (issue 4 was excluded)
  EXPECT_EQ(rows[0].fields, (std::vector<std::string>{"repo", "number", "url", "title", "text", "symptom",
                                                      "root_cause", "note"}));
  EXPECT_EQ(rows[1].fields[1], "2");
  EXPECT_EQ(rows[1].fields[5], "");
  // Filled in and imported back, the sheet round-trips.
  std::string filled = out.str();
  filled.replace(filled.rfind(",,,"), 3, ",hang,concurrency_error,");
  auto r = import_label_sheet(db, "alice", dir.write("filled.csv", filled));
  EXPECT_EQ(r.labeled, 1);
  EXPECT_THROW(export_label_sheet(db, out, SheetSelection::kSample, "missing"), faultline::Error);
}

TEST(LabelExport, UncertainQueueWithoutStoredThresholdsListsTheLeastConfidentFirst) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  add_issues(db, 4);
  auto id = [&](int n) { return *find_issue(db, "a/b", n); };
  // Predictions stored before thresholds were kept. Issue 1 confident; 2 and 3 abstained (3 less sure:
  // min(.6, .2) = .2 < min(.4, .5) = .4); 4 abstained but already has a manual label.
  replace_predictions(
      db,
      {{id(1), "v", "in", .9, "crash", .9, "api_misuse", .9, false, "[]", std::nullopt, std::nullopt},
       {id(2), "v", "in", .9, "crash", .4, "api_misuse", .5, true, "[]", std::nullopt, std::nullopt},
       {id(3), "v", "in", .9, "hang", .6, "concurrency_error", .2, true, "[]", std::nullopt, std::nullopt},
       {id(4), "v", "in", .9, "hang", .1, "concurrency_error", .1, true, "[]", std::nullopt, std::nullopt}});
  db.transaction([&] {
    replace_final_labels(db, {{id(4), "hang", "concurrency_error", "agreed", "x,y"}},
                         record_audit(db, "x,y", 1, 1, .8, "pass"));
  });
  replace_screening(db, {{id(1), "candidate", "title:crash"},
                         {id(2), "candidate", "title:crash"},
                         {id(3), "candidate", "title:crash"},
                         {id(4), "candidate", "title:crash"}});
  std::ostringstream out;
  EXPECT_EQ(export_uncertain_sheet(db, out, uncertain_queue(db)), 2);
  auto rows = common::parse_csv(out.str(), "queue");
  EXPECT_EQ(rows[1].fields[1], "3");
  EXPECT_EQ(rows[2].fields[1], "2");
}

TEST(LabelExport, UncertainQueuePutsFirstTheIssueFurthestUnderAThresholdAndLeavesOutWhatAPersonScopedOut) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  // No issues, then no predictions yet: no queue to tell, and the error says which.
  auto queue_error = [&] {
    try {
      uncertain_queue(db);
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(queue_error().find("the store holds no issues"), std::string::npos) << queue_error();
  add_issues(db, 12);
  EXPECT_NE(queue_error().find("no predictions in the store"), std::string::npos) << queue_error();
  auto id = [&](int n) { return *find_issue(db, "a/b", n); };
  auto decide = [&](int n, const std::string& scope) {
    IssueRecord issue = load_issue(db, id(n));
    issue.scope = scope;
    issue.scope_reason = "a person's decision";
    upsert_issue(db, issue);
  };
  decide(6, "out");
  decide(8, "out");
  decide(10, "in");  // screened out before a person put it in scope
  std::vector<ScreeningDecision> screening;
  for (int n : {1, 2, 3, 4, 5, 6, 8, 11}) screening.push_back({id(n), "candidate", "title:crash"});
  screening.push_back({id(7), "excluded", "label:question"});
  screening.push_back({id(10), "excluded", "state:open"});
  replace_screening(db, screening);  // 9 is not screened
  // Thresholds: symptom 0.9, root cause 0.3. Margins min(p_s - 0.9, p_rc - 0.3), by hand:
  //   2: min(-0.05, +0.2) = -0.05;  3: min(+0.05, -0.1) = -0.1;  5: min(-0.3, +0.6) = -0.3;
  //   10: min(-0.2, +0.6) = -0.2.
  // The queue is 5, 10, 3, 2; by the lower probability alone it would be 3 (.2), 2 (.5), 5 (.6), 10 (.7).
  // 1 and 8 the model labels (8 is out of scope too), 4 has a manual label; left out are the abstentions on
  // 6 (a person's "out") and 7 (screening excluded it), and apart 9 (not screened). 11 and 12 have no
  // prediction: 11, a candidate, is counted as not classified yet; 12 as neither screened nor classified.
  auto prediction = [&](int n, double symptom_p, double root_cause_p, bool abstain) {
    return Prediction{id(n),        "v",          "in",    .9,   "crash", symptom_p,
                      "api_misuse", root_cause_p, abstain, "[]", 0.9,     0.3};
  };
  replace_predictions(
      db, {prediction(1, .95, .9, false), prediction(2, .85, .5, true), prediction(3, .95, .2, true),
           prediction(4, .1, .1, true), prediction(5, .6, .9, true), prediction(6, .1, .9, true),
           prediction(7, .4, .9, true), prediction(8, .95, .9, false), prediction(9, .1, .1, true),
           prediction(10, .7, .9, true)});
  db.transaction([&] {
    replace_final_labels(db, {{id(4), "hang", "concurrency_error", "agreed", "x,y"}},
                         record_audit(db, "x,y", 1, 1, .8, "pass"));
  });
  std::ostringstream out;
  auto queue = uncertain_queue(db);
  EXPECT_EQ(queue.counts.manual, 1);
  EXPECT_EQ(queue.counts.queued, 4);
  EXPECT_EQ(queue.counts.abstained_excluded, 2);
  EXPECT_EQ(queue.counts.abstained_unscreened, 1);
  EXPECT_EQ(queue.unclassified, 1);
  EXPECT_EQ(queue.unclassified_unscreened, 1);
  EXPECT_EQ(export_uncertain_sheet(db, out, queue), 4);
  auto rows = common::parse_csv(out.str(), "queue");
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1].fields[1], "5");
  EXPECT_EQ(rows[2].fields[1], "10");
  EXPECT_EQ(rows[3].fields[1], "3");
  EXPECT_EQ(rows[4].fields[1], "2");
}

TEST(Audit, AnIssueOnlyOneRaterLabeledIsPendingUntilAdjudicated) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  add_issues(db, 11);
  import_label_sheet(db, "alice",
                     dir.write("a11.csv", std::string(kHeader) + "a/b,11,alice,hang,api_misuse,\n"));
  auto audit = run_audit(db, {"alice", "bob"}, 0.8);
  EXPECT_EQ(audit.n, 10);  // issue 11 cannot be scored
  EXPECT_EQ(audit.pending, (std::vector<std::string>{"a/b#10", "a/b#11"}));
  EXPECT_EQ(audit.partially_labeled, (std::vector<std::string>{"a/b#11"}));
  auto j = audit_json(audit);
  EXPECT_EQ(j.at("pending").size(), 2u);
  EXPECT_EQ(j.at("pending_partially_labeled")[0], "a/b#11");
  EXPECT_EQ(adjudication_queue(db, AdjudicationQueue::kPending), audit.pending);
  EXPECT_EQ(adjudication_queue(db, AdjudicationQueue::kDisagreements), (std::vector<std::string>{"a/b#10"}));

  std::ostringstream sheet;
  EXPECT_EQ(export_issue_sheet(db, sheet, adjudication_queue(db, AdjudicationQueue::kPending)), 2);
  auto rows = common::parse_csv(sheet.str(), "pending.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].fields[1], "10");
  EXPECT_EQ(rows[2].fields[1], "11");

  auto adj = import_adjudications(
      db, dir.write("adj.csv", std::string(kHeader) + "a/b,11,carol,hang,api_misuse,\n"));
  EXPECT_EQ(adj.audit.value().pending, (std::vector<std::string>{"a/b#10"}));
  EXPECT_TRUE(adj.audit.value().partially_labeled.empty());
}

// A person's decision that an issue is out of scope settles it: neither a disagreement on it nor a label
// from only some raters waits for an adjudicator (AnIssueOnlyOneRaterLabeledIsPendingUntilAdjudicated is
// the same store with both issues in scope).
TEST(Audit, AnIssueAPersonPutOutOfScopeIsNotPending) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  two_raters(dir, db);
  add_issues(db, 11);
  import_label_sheet(db, "alice",
                     dir.write("a11.csv", std::string(kHeader) + "a/b,11,alice,hang,api_misuse,\n"));
  for (int n : {10, 11}) {
    IssueRecord issue = load_issue(db, *find_issue(db, "a/b", n));
    issue.scope = "out";
    issue.scope_reason = "a person's decision";
    upsert_issue(db, issue);
  }
  auto audit = run_audit(db, {"alice", "bob"}, 0.8);
  EXPECT_TRUE(audit.pending.empty());
  EXPECT_TRUE(audit.partially_labeled.empty());
  EXPECT_EQ(audit.out_of_scope, (std::vector<std::string>{"a/b#10", "a/b#11"}));
  EXPECT_EQ(audit_json(audit).at("out_of_scope").size(), 2u);
  EXPECT_EQ(audit.disagreements.size(), 1u);  // still a disagreement, and still in kappa
  EXPECT_EQ(audit.n, 10);
  EXPECT_TRUE(adjudication_queue(db, AdjudicationQueue::kPending).empty());
  EXPECT_TRUE(adjudication_queue(db, AdjudicationQueue::kDisagreements).empty());
}

TEST(LabelImport, ASheetWithOldMacLineEndsImportsEveryRow) {
  // Lines ended by a CR alone: read as one line, the header swallowed the rows and 0 labels came in.
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  add_issues(db, 2);
  auto path = dir.write("cr.csv",
                        "repo,number,rater,symptom,root_cause,note\ra/b,1,alice,crash,api_misuse,n1\r"
                        "a/b,2,alice,hang,concurrency_error,\r");
  auto r = import_label_sheet(db, "alice", path);
  EXPECT_EQ(r.labeled, 2);
  EXPECT_EQ(count(db, "manual_labels"), 2);
}

TEST(LabelImport, AHeaderWithATrailingCommaImportsItsRows) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  add_issues(db, 2);
  auto path = dir.write(
      "t.csv",
      "repo,number,symptom,root_cause,note,\na/b,1,crash,api_misuse,n1,\na/b,2,hang,concurrency_error,,\n");
  EXPECT_EQ(import_label_sheet(db, "alice", path).labeled, 2);
}

TEST(LabelImport, ASheetSavedWithAByteOrderMarkImports) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  add_issues(db, 1);
  auto r = import_label_sheet(
      db, "alice",
      dir.write("bom.csv", "\xEF\xBB\xBF" + std::string(kHeader) + "a/b,1,alice,crash,api_misuse,\n"));
  EXPECT_EQ(r.labeled, 1);
}

TEST(LabelImport, TextThatIsNotUtf8IsRefusedNamingWhere) {
  faultline::testing::TempDir dir;
  Database db(dir.file("l.db"));
  add_issues(db, 2);
  auto path = dir.write("a.csv", std::string(kHeader) + "a/b,1,alice,crash,api_misuse,\n" +
                                     "a/b,2,alice,crash,api_misuse,caf\xE9\n");
  EXPECT_EQ(import_error(db, path), path + ":3: not valid UTF-8 (save the file as UTF-8)");
  std::string message;
  try {
    import_label_sheet(db, "al\xFFice",
                       dir.write("ok.csv", std::string(kHeader) + "a/b,1,,crash,api_misuse,\n"));
  } catch (const faultline::Error& e) {
    message = e.what();
  }
  EXPECT_EQ(message, "label import: --rater is not valid UTF-8 text");
  // A name audit --raters could not give (it splits at commas), or one that breaks a line.
  for (const std::string& name : {std::string("a,b"), std::string("a\nb")}) {
    message.clear();
    try {
      import_label_sheet(db, name, dir.write("ok.csv", std::string(kHeader) + "a/b,1,,crash,api_misuse,\n"));
    } catch (const faultline::Error& e) {
      message = e.what();
    }
    EXPECT_EQ(message, "label import: --rater '" + std::string(name == "a,b" ? "a,b" : "a\\nb") +
                           "' is not a name a new rater may have: 1 to 64 ASCII letters, digits, '.', '_' or "
                           "'-', with single spaces between words");
  }
  EXPECT_EQ(count(db, "manual_labels"), 0);
}
