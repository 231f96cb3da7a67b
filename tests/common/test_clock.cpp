#include <gtest/gtest.h>

#include "common/clock.hpp"

TEST(Timestamps, DatesAndDateTimesBecomeEpochSeconds) {
  EXPECT_EQ(faultline::common::parse_iso8601("1970-01-02"), 86400);
  EXPECT_EQ(faultline::common::parse_iso8601("2024-03-01T00:00:10Z") -
                faultline::common::parse_iso8601("2024-02-28"),
            2 * 86400 + 10);  // leap year
  EXPECT_EQ(faultline::common::parse_iso8601(""), -1);
}
