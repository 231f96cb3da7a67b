#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "classifier/funnel/funnel.hpp"
#include "classifier/funnel/screening.hpp"
#include "common/error.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::funnel;
using namespace faultline::datasets;

namespace {

void add_issue(Database& db, const std::string& repo, int64_t number, const std::string& state,
               const std::string& title, std::vector<std::string> labels = {}) {
  IssueRecord r;
  r.repo = repo;
  r.number = number;
  r.url = "u";
  r.state = state;
  r.created = "2024-01-01";
  r.title = title;
  r.labels = std::move(labels);
  upsert_issue(db, r);
}

int64_t id(Database& db, const std::string& repo, int64_t number) { return *find_issue(db, repo, number); }

// Hand-worked store, counted per repository:
//   a/b: #1-#3 closed with a failure term (candidates), #4 open, #5 closed but no failure term in the title
//        -> raw 5, candidates 3. Sample "s": #1 excluded and replaced by #3, #2 drawn -> sampled 2,
//        excluded 1. Final label on #2 -> labeled 1.
//   c/d: #1-#2 closed with a failure term, #3 carries the out-of-scope label "enhancement" -> raw 3,
//        candidates 2. Sample "s": #1 -> sampled 1. Final label on #1 -> labeled 1. Sample "other" holds
//        #2, which must not count towards "s".
//   e/f: #1 open -> raw 1, nothing else.
//   Total: raw 9, candidates 5, sampled 3, excluded 1, labeled 2.
void fill(Database& db) {
  add_issue(db, "a/b", 1, "closed", "crash in kernel");
  add_issue(db, "a/b", 2, "closed", "hang at exit");
  add_issue(db, "a/b", 3, "closed", "wrong result");
  add_issue(db, "a/b", 4, "open", "crash on start");
  add_issue(db, "a/b", 5, "closed", "how do I build this");
  add_issue(db, "c/d", 1, "closed", "illegal memory access");
  add_issue(db, "c/d", 2, "closed", "build error");
  add_issue(db, "c/d", 3, "closed", "slow decode", {"enhancement"});
  add_issue(db, "e/f", 1, "open", "segfault");
  screen_store(db, ScreeningRules::builtin());
  replace_sample(db, "s",
                 {{id(db, "a/b", 1), "excluded", "draw", "duplicate", id(db, "a/b", 3), 1},
                  {id(db, "a/b", 2), "sampled", "draw", {}, {}, 1},
                  {id(db, "a/b", 3), "sampled", "replacement", {}, {}, 1},
                  {id(db, "c/d", 1), "sampled", "draw", {}, {}, 1}});
  replace_sample(db, "other", {{id(db, "c/d", 2), "sampled", "draw", {}, {}, 2}});
  int64_t audit = record_audit(db, "rater_a,rater_b", 2, 1.0, 0.8, "pass");
  replace_final_labels(db,
                       {{id(db, "a/b", 2), "hang", "concurrency_error", "agreed", "rater_a,rater_b"},
                        {id(db, "c/d", 1), "crash", "improper_memory_access", "agreed", "rater_a,rater_b"}},
                       audit);
}

void expect_row(const FunnelRow& row, const std::string& repo, int raw, int candidates, int sampled,
                int excluded, int labeled) {
  EXPECT_EQ(row.repo, repo);
  EXPECT_EQ(row.raw, raw) << repo;
  EXPECT_EQ(row.candidates, candidates) << repo;
  EXPECT_EQ(row.sampled, sampled) << repo;
  EXPECT_EQ(row.excluded, excluded) << repo;
  EXPECT_EQ(row.labeled, labeled) << repo;
}

}  // namespace

TEST(Funnel, CountsEachStageOfTableOnePerRepository) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  auto f = compute_funnel(db, "s");
  ASSERT_EQ(f.rows.size(), 3u);
  expect_row(f.rows[0], "a/b", 5, 3, 2, 1, 1);
  expect_row(f.rows[1], "c/d", 3, 2, 1, 0, 1);
  expect_row(f.rows[2], "e/f", 1, 0, 0, 0, 0);
  expect_row(funnel_total(f.rows), "Total", 9, 5, 3, 1, 2);
  EXPECT_EQ(f.labeled_outside, 0);
  EXPECT_EQ(f.sample_method, "draw+replacement");
}

TEST(Funnel, LabelsOutsideTheNamedSampleAreCountedApartNotAsFinal) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  // Sample "other" holds only c/d#2, which has no label: a/b#2 and c/d#1 are labeled but not in it, so the
  // final column is 0 everywhere (it may not exceed sampled: a/b has 0 sampled) and both are outside.
  auto f = compute_funnel(db, "other");
  ASSERT_EQ(f.rows.size(), 3u);
  expect_row(f.rows[0], "a/b", 5, 3, 0, 0, 0);
  expect_row(f.rows[1], "c/d", 3, 2, 1, 0, 0);
  EXPECT_EQ(f.labeled_outside, 2);
  EXPECT_TRUE(f.final_issues.empty());
  EXPECT_EQ(f.sample_method, "draw");
}

TEST(Funnel, SampleMembersThatAreNoLongerCandidatesAreCountedApart) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  // Reopening c/d#1 and screening again makes it no candidate: it leaves sampled and final (where its label
  // was), and is counted as a stale sample member with a final label. It is still in the sample, so it is
  // not a label outside it.
  IssueRecord r = load_issue(db, id(db, "c/d", 1));
  r.state = "open";
  upsert_issue(db, r);
  screen_store(db, ScreeningRules::builtin());
  auto f = compute_funnel(db, "s");
  expect_row(f.rows[1], "c/d", 3, 1, 0, 0, 0);
  EXPECT_EQ(f.sampled_not_candidates, 1);
  EXPECT_EQ(f.labeled_not_candidates, 1);
  EXPECT_EQ(f.labeled_outside, 0);
  EXPECT_EQ(f.labeled_excluded, 0);
  EXPECT_EQ(labels_left_out(f), 1);
  EXPECT_NE(funnel_note(f).find("no longer admits (1, 1 of them with final labels)"), std::string::npos)
      << funnel_note(f);
  EXPECT_EQ(funnel_note(f).find("outside it"), std::string::npos) << funnel_note(f);
  EXPECT_EQ(funnel_json(f)["labeled_not_candidates"], 1);
}

TEST(Funnel, AFinalLabelOnAnExcludedMemberIsCountedApartFromLabelsOutsideTheSample) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  // a/b#1 was excluded from "s" (replaced by #3); a final label on it counts as neither final nor outside.
  int64_t audit = record_audit(db, "rater_a,rater_b", 3, 1.0, 0.8, "pass");
  replace_final_labels(db,
                       {{id(db, "a/b", 1), "crash", "api_misuse", "agreed", "rater_a,rater_b"},
                        {id(db, "a/b", 2), "hang", "concurrency_error", "agreed", "rater_a,rater_b"},
                        {id(db, "c/d", 1), "crash", "improper_memory_access", "agreed", "rater_a,rater_b"}},
                       audit);
  auto f = compute_funnel(db, "s");
  expect_row(funnel_total(f.rows), "Total", 9, 5, 3, 1, 2);
  EXPECT_EQ(f.labeled_excluded, 1);
  EXPECT_EQ(f.labeled_outside, 0);
  EXPECT_EQ(f.labeled_not_candidates, 0);
  EXPECT_NE(funnel_note(f).find("excluded from it (1)"), std::string::npos) << funnel_note(f);
  EXPECT_EQ(funnel_json(f)["labeled_excluded"], 1);
}

TEST(Funnel, IssuesChangedOrStoredSinceTheLastScreenAreCountedApartUntilTheNextScreen) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  EXPECT_EQ(compute_funnel(db, "s").not_screened, 0);
  // c/d#1 (sampled, labeled) and a/b#1 (a sample member the draw excluded) are retitled, a/b#5 gains a
  // label, and g/h#1 comes: four issues without a decision, one of them sampled and labeled. c/d keeps raw
  // 3 but loses the candidate, sampled and final c/d#1 held; a/b loses the candidate and the excluded a/b#1
  // held; a/b#5 was no candidate. The label of c/d#1 waits for a screen: it is not outside the sample.
  for (const auto& [repo, title] : std::map<std::string, std::string>{
           {"c/d", "illegal memory access in split-k"}, {"a/b", "crash in kernel with split-k"}}) {
    IssueRecord retitled = load_issue(db, id(db, repo, 1));
    retitled.title = title;
    upsert_issue(db, retitled);
  }
  IssueRecord labeled = load_issue(db, id(db, "a/b", 5));
  labeled.labels = {"question"};
  upsert_issue(db, labeled);
  add_issue(db, "g/h", 1, "closed", "crash in decode");
  auto f = compute_funnel(db, "s");
  expect_row(f.rows[0], "a/b", 5, 2, 2, 0, 1);
  expect_row(f.rows[1], "c/d", 3, 1, 0, 0, 0);
  expect_row(f.rows[3], "g/h", 1, 0, 0, 0, 0);
  EXPECT_EQ(f.not_screened, 4);
  EXPECT_EQ(f.sampled_not_screened, 1);
  EXPECT_EQ(f.labeled_not_screened, 1);
  EXPECT_EQ(f.labeled_outside, 0);
  EXPECT_EQ(f.sampled_not_candidates, 0);  // no screen excluded them: none has looked at them since
  EXPECT_NE(
      funnel_note(f).find("counted as raw only: 4 issues, 1 of them sampled (1 of those with final labels) "
                          "(run 'faultline screen')."),
      std::string::npos)
      << funnel_note(f);
  EXPECT_EQ(funnel_note(f).find("outside it"), std::string::npos) << funnel_note(f);
  auto j = funnel_json(f);
  EXPECT_EQ(j["not_screened"], 4);
  EXPECT_EQ(j["sampled_not_screened"], 1);
  EXPECT_EQ(j["labeled_not_screened"], 1);

  screen_store(db, ScreeningRules::builtin());  // the new title still names a failure: back in every column
  auto again = compute_funnel(db, "s");
  expect_row(again.rows[0], "a/b", 5, 3, 2, 1, 1);
  expect_row(again.rows[1], "c/d", 3, 2, 1, 0, 1);
  expect_row(again.rows[3], "g/h", 1, 1, 0, 0, 0);
  EXPECT_EQ(again.not_screened, 0);
  EXPECT_EQ(funnel_note(again).find("Not screened"), std::string::npos) << funnel_note(again);
}

TEST(Funnel, TheNoteSaysHowManyIssuesAPersonScreened) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  IssueRecord r = load_issue(db, id(db, "e/f", 1));  // open: the rules exclude it, a person keeps it
  r.scope = "in";
  upsert_issue(db, r);
  screen_store(db, ScreeningRules::builtin());
  auto f = compute_funnel(db, "s");
  EXPECT_EQ(f.screened_by_person, 1);
  expect_row(f.rows[2], "e/f", 1, 1, 0, 0, 0);
  EXPECT_NE(funnel_note(f).find("rather than the rules: 1."), std::string::npos) << funnel_note(f);
}

TEST(Funnel, EveryStageIsWithinTheOneBeforeIt) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  for (const char* sample : {"s", "other"}) {
    for (const auto& r : compute_funnel(db, sample).rows) {
      EXPECT_LE(r.labeled, r.sampled) << sample << " " << r.repo;
      EXPECT_LE(r.sampled + r.excluded, r.candidates) << sample << " " << r.repo;
      EXPECT_LE(r.candidates, r.raw) << sample << " " << r.repo;
    }
  }
}

TEST(Funnel, WithoutASampleNothingIsFinalAndTheDescriptionSaysSo) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  auto f = compute_funnel(db, "");
  EXPECT_EQ(funnel_total(f.rows).labeled, 0);
  EXPECT_EQ(f.labeled_outside, 2);
  EXPECT_EQ(f.sample_method, "none");
  EXPECT_NE(funnel_note(f).find("No sample is recorded"), std::string::npos);
  EXPECT_NE(funnel_note(f).find("outside it (2)"), std::string::npos);
}

TEST(Funnel, DefaultSampleIsMainThenTheOnlyOneAndAMisspelledNameIsAnError) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  EXPECT_EQ(resolve_sample(db, ""), "");  // none in the store
  fill(db);                               // samples "other" and "s", no "main"
  EXPECT_EQ(resolve_sample(db, "other"), "other");
  EXPECT_THROW(resolve_sample(db, ""), faultline::Error);
  try {
    resolve_sample(db, "smaple");
    FAIL() << "a misspelled sample was accepted";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("samples: other, s"), std::string::npos) << e.what();
  }
  replace_sample(db, "other", {});
  EXPECT_EQ(resolve_sample(db, ""), "s");  // the only one left
  replace_sample(db, "main", {{id(db, "c/d", 2), "sampled", "draw", {}, {}, 3}});
  EXPECT_EQ(resolve_sample(db, ""), "main");
}

TEST(Funnel, JsonCarriesTheRowsTheirTotalAndWhatFellOutside) {
  faultline::testing::TempDir dir;
  Database db(dir.file("funnel.db"));
  fill(db);
  auto j = funnel_json(compute_funnel(db, "s"));
  ASSERT_EQ(j.at("repositories").size(), 3u);
  EXPECT_EQ(
      j["repositories"][0],
      (nlohmann::json{
          {"repo", "a/b"}, {"raw", 5}, {"candidate", 3}, {"sampled", 2}, {"excluded", 1}, {"final", 1}}));
  EXPECT_EQ(
      j["total"],
      (nlohmann::json{
          {"repo", "Total"}, {"raw", 9}, {"candidate", 5}, {"sampled", 3}, {"excluded", 1}, {"final", 2}}));
  EXPECT_EQ(j["sample"], "s");
  EXPECT_EQ(j["sample_method"], "draw+replacement");
  EXPECT_EQ(j["seed"], 1);
  EXPECT_EQ(j["labeled_outside_sample"], 0);
  EXPECT_EQ(j["screened_by_person"], 0);  // no issue of fill() carries a scope decision
}

// GitHub's names ignore case: one repository is one row whatever the case it is stored in, under the
// study's spelling for a study repository. A store written before names were matched in any case may hold
// one repository in two rows, even one issue twice: both rows' issues are counted in one row of the funnel,
// and an issue stored twice is said to count more than once.
TEST(Funnel, OneRepositoryIsOneRowWhateverTheCaseOfItsStoredNames) {
  faultline::testing::TempDir dir;
  Database db(dir.file("f.db"));
  db.exec(
      "INSERT INTO repositories(id, full_name) VALUES (1, 'nvidia/CUTLASS'), (2, 'Nvidia/Cutlass'), "
      "(3, 'acme/Kernels'), (4, 'Acme/kernels')");
  add_issue(db, "nvidia/CUTLASS", 1, "closed", "crash in kernel");
  add_issue(db, "Nvidia/Cutlass", 1, "closed", "crash in kernel");  // the same issue, stored twice
  add_issue(db, "Nvidia/Cutlass", 2, "open", "hang");
  add_issue(db, "acme/Kernels", 1, "closed", "crash in kernel");
  add_issue(db, "Acme/kernels", 2, "closed", "wrong result");
  screen_store(db, ScreeningRules::builtin());
  StudyFunnel f = compute_funnel(db, "");
  ASSERT_EQ(f.rows.size(), 2u);
  EXPECT_EQ(f.rows[0].repo, "Acme/kernels");  // the first spelling in sorted order ('A' < 'a')
  EXPECT_EQ(f.rows[0].raw, 2);
  EXPECT_EQ(f.rows[0].candidates, 2);
  EXPECT_EQ(f.rows[1].repo, "NVIDIA/cutlass");  // the study's spelling, stored in neither case
  EXPECT_EQ(f.rows[1].raw, 3);
  EXPECT_EQ(f.rows[1].candidates, 2);
  EXPECT_EQ(f.row_names, (std::map<std::string, std::string>{{"Acme/kernels", "Acme/kernels"},
                                                             {"Nvidia/Cutlass", "NVIDIA/cutlass"},
                                                             {"acme/Kernels", "Acme/kernels"},
                                                             {"nvidia/CUTLASS", "NVIDIA/cutlass"}}));
  EXPECT_EQ(f.stored_twice, 1);
  EXPECT_NE(
      funnel_note(f).find("Counted more than once: issues the store holds again under another spelling"),
      std::string::npos)
      << funnel_note(f);
  EXPECT_EQ(funnel_json(f)["stored_twice"], 1);
}

TEST(Funnel, AStoreWithOneSpellingPerRepositoryCountsNothingTwice) {
  faultline::testing::TempDir dir;
  Database db(dir.file("f.db"));
  fill(db);
  StudyFunnel f = compute_funnel(db, "s");
  EXPECT_EQ(f.stored_twice, 0);
  EXPECT_EQ(funnel_note(f).find("Counted more than once"), std::string::npos);
  EXPECT_EQ(f.row_names,
            (std::map<std::string, std::string>{{"a/b", "a/b"}, {"c/d", "c/d"}, {"e/f", "e/f"}}));
}
