#include <gtest/gtest.h>

#include "common/clock.hpp"

TEST(Timestamps, DatesAndDateTimesBecomeEpochSeconds) {
  EXPECT_EQ(faultline::common::parse_iso8601("1970-01-02"), 86400);
  EXPECT_EQ(faultline::common::parse_iso8601("2024-03-01T00:00:10Z") -
                faultline::common::parse_iso8601("2024-02-28"),
            2 * 86400 + 10);  // leap year
  EXPECT_EQ(faultline::common::parse_iso8601(""), -1);
}

using faultline::common::timestamp_form;
using faultline::common::TimestampForm;

// Each near miss breaks one rule of common/clock.hpp; the calendar cases follow the Gregorian rule (2024
// and 2000 are leap years, 2023 and 2100 are not; April has 30 days).
TEST(Timestamps, TheTwoFormsAreKnownAndEveryNearMissIsNeither) {
  EXPECT_EQ(timestamp_form("2024-05-30"), TimestampForm::kDay);
  EXPECT_EQ(timestamp_form("2024-05-30T12:00:00Z"), TimestampForm::kMoment);
  EXPECT_EQ(timestamp_form("2024-12-31T23:59:59Z"), TimestampForm::kMoment);
  EXPECT_EQ(timestamp_form("2024-02-29"), TimestampForm::kDay);
  EXPECT_EQ(timestamp_form("2000-02-29"), TimestampForm::kDay);
  EXPECT_EQ(timestamp_form("1970-01-01T00:00:00Z"), TimestampForm::kMoment);
  for (const char* near_miss : {"",
                                "2023-02-29",
                                "2100-02-29",
                                "2024-04-31",
                                "2024-00-10",
                                "2024-13-01",
                                "2024-01-00",
                                "2024-1-01",
                                "24-01-01",
                                " 2024-01-01",
                                "2024-01-01\n",
                                "2024/01/01",
                                "2O24-01-01",
                                "2024-01-01T24:00:00Z",
                                "2024-01-01T23:60:00Z",
                                "2024-01-01T23:59:60Z",
                                "2024-01-01T12:00:00",
                                "2024-01-01 12:00:00Z",
                                "2024-01-01T12:00:00+0",
                                "2024-01-01T12-00-00Z",
                                "2024-01-01T12:00:00z",
                                "-024-01-01",
                                "1969-12-31",
                                "0000-01-01T00:00:00Z"}) {
    EXPECT_EQ(timestamp_form(near_miss), TimestampForm::kNeither) << near_miss;
  }
}

TEST(Timestamps, OrderIsReadOverTheShorterForm) {
  using faultline::common::not_before;
  // Same form: plain time order.
  EXPECT_TRUE(not_before("2024-05-30T12:00:01Z", "2024-05-30T12:00:00Z"));
  EXPECT_TRUE(not_before("2024-05-30T12:00:00Z", "2024-05-30T12:00:00Z"));
  EXPECT_FALSE(not_before("2024-05-30T11:59:59Z", "2024-05-30T12:00:00Z"));
  EXPECT_FALSE(not_before("2024-05-29", "2024-05-30"));
  // A day and a moment of that day are in order whichever comes first.
  EXPECT_TRUE(not_before("2024-05-30", "2024-05-30T23:59:59Z"));
  EXPECT_TRUE(not_before("2024-05-30T00:00:00Z", "2024-05-30"));
  // A moment of the day before is not.
  EXPECT_FALSE(not_before("2024-05-29T23:59:59Z", "2024-05-30"));
  EXPECT_FALSE(not_before("2024-05-29", "2024-05-30T00:00:00Z"));
  // An absent time (empty) is in order with any: a record may leave `updated` out.
  EXPECT_TRUE(not_before("", "2024-05-30"));
  EXPECT_TRUE(not_before("2024-05-30", ""));
}
