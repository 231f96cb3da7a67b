#include <gtest/gtest.h>

#include <map>
#include <set>

#include "classifier/funnel/sampler.hpp"
#include "classifier/funnel/screening.hpp"
#include "common/clock.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "common/error.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::funnel;
using namespace faultline::datasets;

TEST(Allocation, ReproducesTheStudysTableOne) {
  // Candidates 390, 302, 815, 597, 38, 206, 833 sum to 3181. Quotas 300*n/3181:
  // 36.78, 28.48, 76.86, 56.30, 3.58, 19.43, 78.56 → floors 36+28+76+56+3+19+78 = 296.
  // The 4 missing seats go to the largest remainders .86 (Triton), .78 (FlashInfer), .58 (DeepGEMM), .56
  // (bnb).
  EXPECT_EQ(allocate_largest_remainder({390, 302, 815, 597, 38, 206, 833}, 300),
            (std::vector<int>{37, 28, 77, 56, 4, 19, 79}));
}

TEST(Allocation, SharesAlwaysSumToTheTotalAndTiesGoToLargerStrata) {
  // 3 equal strata, 2 seats: remainders tie at 2/3 each; by the rule, index order decides between equals.
  EXPECT_EQ(allocate_largest_remainder({5, 5, 5}, 2), (std::vector<int>{1, 1, 0}));
  // Counts 1 and 3, 2 seats: quotas 0.5 and 1.5 tie on remainder; the larger stratum wins.
  EXPECT_EQ(allocate_largest_remainder({1, 3}, 2), (std::vector<int>{0, 2}));
  EXPECT_THROW(allocate_largest_remainder({1, 1}, 3), faultline::Error);
}

namespace {

// Repository a/b: candidates #1..#6 created on the given days of January 2024; #7 is open.
void fill(Database& db) {
  const int days[] = {1, 10, 12, 14, 20, 20};
  for (int i = 0; i < 6; ++i) {
    IssueRecord r;
    r.repo = "a/b";
    r.number = i + 1;
    r.url = "u";
    r.state = "closed";
    r.created = "2024-01-" + std::string(days[i] < 10 ? "0" : "") + std::to_string(days[i]);
    r.title = "crash " + std::to_string(i + 1);
    upsert_issue(db, r);
  }
  IssueRecord open;
  open.repo = "a/b";
  open.number = 7;
  open.url = "u";
  open.state = "open";
  open.created = "2024-01-13";
  open.title = "crash 7";
  upsert_issue(db, open);
  screen_store(db, ScreeningRules::builtin());
}

int64_t number_of(Database& db, int64_t id) { return load_issue(db, id).number; }

}  // namespace

TEST(Replacement, PicksNearestCreationTimeNeverSampledOrExcluded) {
  faultline::testing::TempDir dir;
  Database db(dir.file("r.db"));
  fill(db);
  // Put #3 (Jan 12) and #4 (Jan 14) in the sample by hand, then replace #3.
  replace_sample(db, "s",
                 {{*find_issue(db, "a/b", 3), "sampled", "draw", {}, {}, 1},
                  {*find_issue(db, "a/b", 4), "sampled", "draw", {}, {}, 1}});
  // Distances from Jan 12: #2 = 2 days, #4 = 2 days but sampled, #7 = 1 day but not a candidate (open).
  auto r = replace_in_sample(db, "s", "a/b", 3, "speculative cause only");
  EXPECT_EQ(r.replacement_key, "a/b#2");
  EXPECT_EQ(r.distance_seconds, 2 * 86400);
  // Replacing #4 (Jan 14): #3 excluded, #2 sampled; nearest left are #5 and #6 (6 days) — tie on time,
  // broken by the lower number.
  auto r2 = replace_in_sample(db, "s", "a/b", 4, "duplicate");
  EXPECT_EQ(r2.replacement_key, "a/b#5");
  auto entries = load_sample(db, "s");
  int sampled = 0;
  for (const auto& e : entries) {
    if (e.status == "sampled") ++sampled;
    if (number_of(db, e.issue_id) == 3) {
      EXPECT_EQ(e.status, "excluded");
      EXPECT_EQ(*e.reason, "speculative cause only");
      EXPECT_EQ(number_of(db, *e.replaced_by), 2);
    }
  }
  EXPECT_EQ(sampled, 2);
  EXPECT_THROW(replace_in_sample(db, "s", "a/b", 3, "again"), faultline::Error);  // already excluded
}

TEST(Replacement, TieOnDistanceGoesToTheEarlierCreatedIssue) {
  faultline::testing::TempDir dir;
  Database db(dir.file("r.db"));
  fill(db);
  // Sample {#3, Jan 12}: candidates #2 (Jan 10) and #4 (Jan 14) are both 2 days away; the earlier (#2) wins.
  replace_sample(db, "t", {{*find_issue(db, "a/b", 3), "sampled", "draw", {}, {}, 1}});
  EXPECT_EQ(replace_in_sample(db, "t", "a/b", 3, "x").replacement_key, "a/b#2");
}

namespace {

// Three strata of 5, 3 and 1 closed candidates, plus an open issue in each that must never be drawn.
void fill_three_strata(Database& db) {
  const std::pair<const char*, int> strata[] = {{"a/b", 5}, {"c/d", 3}, {"e/f", 1}};
  for (const auto& [repo, n] : strata) {
    for (int i = 1; i <= n + 1; ++i) {
      IssueRecord r;
      r.repo = repo;
      r.number = i;
      r.url = "u";
      r.state = i <= n ? "closed" : "open";
      r.created = "2024-01-01";
      r.title = "crash " + std::to_string(i);
      upsert_issue(db, r);
    }
  }
  screen_store(db, ScreeningRules::builtin());
}

}  // namespace

TEST(Sample, DrawIsProportionalPerRepositoryByLargestRemainder) {
  faultline::testing::TempDir dir;
  Database db(dir.file("r.db"));
  fill_three_strata(db);
  // 4 of 9 candidates: quotas 5*4/9 = 2.22, 3*4/9 = 1.33, 1*4/9 = 0.44 -> floors 2, 1, 0 (3 seats); the
  // fourth goes to the largest remainder, .44 (e/f). Plain rounding would give 2, 1, 0 and only 3 issues.
  auto draw = draw_sample(db, "m", 4, 9);
  EXPECT_EQ(draw["a/b"].candidates, 5);
  EXPECT_EQ(draw["c/d"].candidates, 3);
  EXPECT_EQ(draw["e/f"].candidates, 1);
  EXPECT_EQ(draw["a/b"].allocated, 2);
  EXPECT_EQ(draw["c/d"].allocated, 1);
  EXPECT_EQ(draw["e/f"].allocated, 1);
  // The stored sample holds exactly those numbers per repository, drawn from closed issues only.
  std::map<std::string, int> stored;
  std::set<int64_t> distinct;
  for (const auto& e : load_sample(db, "m")) {
    IssueRecord issue = load_issue(db, e.issue_id);
    EXPECT_EQ(issue.state, "closed") << issue.key();
    EXPECT_EQ(e.status, "sampled");
    ++stored[issue.repo];
    distinct.insert(e.issue_id);
  }
  EXPECT_EQ(stored, (std::map<std::string, int>{{"a/b", 2}, {"c/d", 1}, {"e/f", 1}}));
  EXPECT_EQ(distinct.size(), 4u);
}

TEST(Sample, DrawIsDeterministicForASeed) {
  faultline::testing::TempDir dir;
  Database db(dir.file("r.db"));
  fill_three_strata(db);
  draw_sample(db, "m", 4, 9);
  auto a = load_sample(db, "m");
  draw_sample(db, "m", 4, 9);
  auto b = load_sample(db, "m");
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), 4u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].issue_id, b[i].issue_id);
}
