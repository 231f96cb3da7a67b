#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/parallel_tasks.hpp"

using faultline::common::run_in_parallel;

TEST(ParallelTasks, EveryTaskRunsOnceWhateverTheThreadCount) {
  for (int jobs : {1, 3, 64}) {
    std::vector<int> runs(100, 0);
    run_in_parallel(runs.size(), jobs, [&](size_t i) { runs[i] += static_cast<int>(i) + 1; });
    for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i], static_cast<int>(i) + 1) << "jobs " << jobs;
  }
}

TEST(ParallelTasks, TheLowestFailingTaskIsRethrownAfterAllRan) {
  std::vector<int> ran(20, 0);
  try {
    run_in_parallel(ran.size(), 4, [&](size_t i) {
      ran[i] = 1;
      if (i == 7 || i == 3) throw std::runtime_error("task " + std::to_string(i));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task 3");
  }
  for (int r : ran) EXPECT_EQ(r, 1);
}
