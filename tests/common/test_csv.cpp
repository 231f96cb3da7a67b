#include <gtest/gtest.h>

#include <sstream>

#include "common/csv.hpp"
#include "common/error.hpp"

using namespace faultline;

TEST(Csv, QuotedFieldsHoldCommasQuotesAndNewlines) {
  auto rows = common::parse_csv("a,b\n\"x, y\",\"say \"\"hi\"\"\nthere\"\nlast,\n", "t.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"x, y", "say \"hi\"\nthere"}));
  EXPECT_EQ(rows[1].line, 2);
  EXPECT_EQ(rows[2].line, 4);  // the quoted newline moved the next row down one line
  EXPECT_EQ(rows[2].fields, (std::vector<std::string>{"last", ""}));
}

TEST(Csv, WriterOutputParsesBackToTheSameFields) {
  std::vector<std::string> fields{"plain", "with,comma", "with \"quote\"", "multi\nline", ""};
  std::ostringstream out;
  common::write_csv_row(out, fields);
  auto rows = common::parse_csv(out.str(), "w");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].fields, fields);
}

TEST(Csv, UnterminatedQuoteNamesTheLine) {
  try {
    common::parse_csv("a,b\nc,\"open\n", "bad.csv");
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_STREQ(e.what(), "bad.csv:2: quoted field is never closed");
  }
}

TEST(Csv, CrLfLineEndingsAreAccepted) {
  auto rows = common::parse_csv("a,b\r\nc,d\r\n", "t.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"c", "d"}));
}
