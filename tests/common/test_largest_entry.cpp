#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/largest_entry.hpp"

using faultline::common::largest_entry;

TEST(LargestEntry, PicksTheLargestValueWhereverItSits) {
  // The maximum is the middle key, so neither "first" nor "last" would pass.
  std::map<std::string, double> d{{"crash", 0.2}, {"hang", 0.7}, {"performance", 0.1}};
  EXPECT_EQ(largest_entry(d), (std::pair<std::string, double>{"hang", 0.7}));
  std::map<std::string, int> counts{{"a", 1}, {"b", 2}, {"c", 5}};
  EXPECT_EQ(largest_entry(counts), (std::pair<std::string, int>{"c", 5}));
}

TEST(LargestEntry, TiesGoToTheSmallerKey) {
  std::map<std::string, int> counts{{"zeta", 3}, {"beta", 3}, {"alpha", 1}, {"gamma", 3}};
  EXPECT_EQ(largest_entry(counts).first, "beta");
}

TEST(LargestEntry, NegativeValuesStillHaveALargest) {
  std::map<std::string, double> scores{{"x", -3.0}, {"y", -1.5}};
  EXPECT_EQ(largest_entry(scores).first, "y");
}

TEST(LargestEntry, EmptyMapGivesEmptyKeyAndZero) {
  std::map<std::string, double> none;
  EXPECT_EQ(largest_entry(none), (std::pair<std::string, double>{"", 0.0}));
}

TEST(KeysOfLargest, NamesEveryKeyTiedForTheLargestValueInTheMapsOrder) {
  using faultline::common::keys_of_largest;
  EXPECT_EQ(keys_of_largest(std::map<std::string, int>{{"c", 5}, {"a", 5}, {"b", 4}}),
            (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(keys_of_largest(std::map<std::string, int>{{"a", 1}, {"b", 2}}), (std::vector<std::string>{"b"}));
  EXPECT_TRUE(keys_of_largest(std::map<std::string, int>{}).empty());
}
