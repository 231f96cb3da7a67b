#include <gtest/gtest.h>

#include <set>

#include "common/seeded_random.hpp"

using faultline::common::seeded_choice;

TEST(SeededChoice, SameSeedSameDrawDifferentSeedDifferentDraw) {
  auto a = seeded_choice(100, 10, 42);
  EXPECT_EQ(a, seeded_choice(100, 10, 42));
  EXPECT_NE(a, seeded_choice(100, 10, 43));
  EXPECT_EQ(std::set<size_t>(a.begin(), a.end()).size(), 10u);
  for (size_t i : a) EXPECT_LT(i, 100u);
}

TEST(SeededChoice, EveryItemIsEquallyLikely) {
  // Choosing 1 of 4 over 4000 seeds: each item expected 1000 times; a 5-sigma band of the
  // binomial(4000, 1/4) (sd = 27.4) is ±137.
  std::vector<int> hits(4);
  for (uint64_t seed = 0; seed < 4000; ++seed) ++hits[seeded_choice(4, 1, seed)[0]];
  for (int h : hits) EXPECT_NEAR(h, 1000, 137);
}
