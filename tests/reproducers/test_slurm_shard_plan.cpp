#include <gtest/gtest.h>

#include "common/error.hpp"
#include "reproducers/slurm_shard_plan.hpp"

using namespace faultline::reproducers;

namespace {

std::vector<PlannedRun> five_runs() {
  return {{"a", "host", "buggy"},
          {"b", "host", "buggy"},
          {"c", "host", "buggy"},
          {"d", "host", "buggy"},
          {"e", "host", "buggy"}};
}

std::vector<std::string> ids(const Shard& s) {
  std::vector<std::string> out;
  for (const auto& r : s.runs) out.push_back(r.id);
  return out;
}

}  // namespace

TEST(SlurmShardPlan, WithoutEarlierDurationsRunsAreDealtRoundRobin) {
  auto plan = plan_shards(five_runs(), 2, {}, 1);
  EXPECT_FALSE(plan.by_durations);
  // By hand: a→0, b→1, c→0, d→1, e→0.
  EXPECT_EQ(ids(plan.shards[0]), (std::vector<std::string>{"a", "c", "e"}));
  EXPECT_EQ(ids(plan.shards[1]), (std::vector<std::string>{"b", "d"}));
}

TEST(SlurmShardPlan, EarlierDurationsBalanceLongestFirst) {
  Durations d{{{"a", "host", "buggy"}, 5},
              {{"b", "host", "buggy"}, 4},
              {{"c", "host", "buggy"}, 3},
              {{"d", "host", "buggy"}, 3},
              {{"e", "host", "buggy"}, 2}};
  auto plan = plan_shards(five_runs(), 2, d, 1);
  EXPECT_TRUE(plan.by_durations);
  // Worked by hand, longest first to the shard with least work (ties to the lower one):
  // a(5)→0 [5,0]; b(4)→1 [5,4]; c(3)→1 [5,7]; d(3)→0 [8,7]; e(2)→1 [8,9].
  // Round-robin would have been {a,c,e}=10 and {b,d}=7: the slowest shard goes from 10 s to 9 s.
  EXPECT_EQ(ids(plan.shards[0]), (std::vector<std::string>{"a", "d"}));
  EXPECT_EQ(ids(plan.shards[1]), (std::vector<std::string>{"b", "c", "e"}));
  EXPECT_DOUBLE_EQ(plan.shards[0].estimate_s, 8);
  EXPECT_DOUBLE_EQ(plan.shards[1].estimate_s, 9);
}

TEST(SlurmShardPlan, RepeatMultipliesHostRunsButNotBuildRuns) {
  std::vector<PlannedRun> runs{{"a", "build", "buggy"}, {"a", "host", "buggy"}};
  Durations d{{{"a", "build", "buggy"}, 10}, {{"a", "host", "buggy"}, 1}};
  auto plan = plan_shards(runs, 1, d, 30);
  // 10 s of build once + 1 s of host 30 times.
  EXPECT_DOUBLE_EQ(plan.shards[0].estimate_s, 40);
}

TEST(SlurmShardPlan, AnUnseenRunCountsAsTheMeanOfTheSeenOnes) {
  std::vector<PlannedRun> runs{{"a", "host", "buggy"}, {"b", "host", "buggy"}, {"new", "host", "buggy"}};
  Durations d{{{"a", "host", "buggy"}, 6}, {{"b", "host", "buggy"}, 2}};
  auto plan = plan_shards(runs, 2, d, 1);
  // new counts 4 s: a(6)→0 [6,0]; new(4)→1 [6,4]; b(2)→1 [6,6].
  EXPECT_EQ(ids(plan.shards[0]), (std::vector<std::string>{"a"}));
  EXPECT_EQ(ids(plan.shards[1]), (std::vector<std::string>{"b", "new"}));
}

TEST(SlurmShardPlan, DurationsComeFromTheStorePerRunAndIgnoreSkippedAndLost) {
  auto result = [](const std::string& id, const std::string& mode, const std::string& outcome, double seconds,
                   int runs) {
    faultline::datasets::SuiteResult r;
    r.repro_id = id;
    r.variant = "buggy";
    r.mode = mode;
    r.outcome = outcome;
    r.seconds = seconds;
    r.runs = runs;
    return r;
  };
  auto host = result("a", "host", "reproduced", 12.0, 4);
  auto skipped = result("a", "gpu", "skipped", 0.01, 0);
  auto lost = result("b", "host", "lost", 0, 0);
  auto d = durations_from({host, skipped, lost});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_DOUBLE_EQ((d[{"a", "host", "buggy"}]), 3.0);  // 12 s over 4 runs
}

TEST(SlurmShardPlan, MoreShardsThanRunsIsRefused) {
  EXPECT_THROW(plan_shards(five_runs(), 6, {}, 1), faultline::Error);
  EXPECT_THROW(plan_shards(five_runs(), 0, {}, 1), faultline::Error);
  EXPECT_NO_THROW(plan_shards(five_runs(), 5, {}, 1));
}

TEST(SlurmShardPlan, AShardOverTheTimeLimitIsRefusedAndOneUnderItPasses) {
  Durations d{{{"a", "host", "buggy"}, 61}};
  std::vector<PlannedRun> one{{"a", "host", "buggy"}};
  EXPECT_THROW(check_time_limit(plan_shards(one, 1, d, 1), 1), faultline::Error);
  EXPECT_NO_THROW(check_time_limit(plan_shards(one, 1, d, 1), 2));
  // Without durations nothing can be estimated, so nothing is refused.
  EXPECT_NO_THROW(check_time_limit(plan_shards(one, 1, {}, 1), 1));
}
