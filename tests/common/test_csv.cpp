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

TEST(Csv, ACarriageReturnAloneEndsARowOutsideQuotesAndStaysInsideThem) {
  auto rows = common::parse_csv("a,b\rc,\"d\re\"\rf,g", "t.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"c", "d\re"}));
  EXPECT_EQ(rows[2].fields, (std::vector<std::string>{"f", "g"}));
  EXPECT_EQ(rows[2].line, 4);  // the quoted CR counts as a line end too
}

TEST(Csv, TextThatIsNotUtf8IsRefusedNamingItsLineWhateverTheLineEnds) {
  for (const std::string& end : {std::string("\n"), std::string("\r\n"), std::string("\r")}) {
    try {
      common::parse_csv("a,b" + end + "c,d" + end + "caf\xE9,f" + end, "bad.csv");
      FAIL() << "no error";
    } catch (const faultline::Error& e) {
      EXPECT_STREQ(e.what(), "bad.csv:3: not valid UTF-8 (save the file as UTF-8)");
    }
  }
}

TEST(Csv, ANulByteIsRefusedNamingItsLine) {
  try {
    common::parse_csv("a,b\r\nc,d\re" + std::string(1, '\0') + ",f\n", "nul.csv");
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_STREQ(e.what(), "nul.csv:3: a NUL byte (not a text file?)");
  }
}

// Issue text decoded from JSON may hold \u0000; a sheet written with it could not be read back.
TEST(Csv, ANulByteIsWrittenAsTheReplacementCharacterSoTheRowReadsBack) {
  std::ostringstream out;
  common::write_csv_row(out, {std::string("a\0b", 3), std::string("\0=1", 3)});
  EXPECT_EQ(out.str().find('\0'), std::string::npos);
  auto rows = common::parse_csv(out.str(), "sheet.csv");
  ASSERT_EQ(rows.size(), 1u);
  // U+FFFD is EF BF BD in UTF-8; the second cell starts with it, so it needs no formula guard.
  EXPECT_EQ(rows[0].fields, (std::vector<std::string>{"a\xEF\xBF\xBD"
                                                      "b",
                                                      "\xEF\xBF\xBD=1"}));
}

TEST(Csv, CellsASpreadsheetWouldRunAsFormulasAreWrittenInertAndReadBackUnchanged) {
  std::vector<std::string> fields{
      "=cmd|' /C calc'!A0", "+SUM(A1:A2)", "-2+3", "@SUM(A1)", "\tTAB", "'quoted", "-0.027", "3", "plain"};
  std::ostringstream out;
  common::write_csv_row(out, fields);
  // Hand-written expectation: a ' before each cell that starts with = + - @ or a tab (but not before the
  // numbers -0.027 and 3), and before the cell that already starts with '.
  EXPECT_EQ(out.str(), "'=cmd|' /C calc'!A0,'+SUM(A1:A2),'-2+3,'@SUM(A1),'\tTAB,''quoted,-0.027,3,plain\n");
  auto rows = common::parse_csv(out.str(), "w");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].fields, fields);
}

TEST(Csv, AUtf8ByteOrderMarkIsNotPartOfTheFirstHeader) {
  auto rows = common::parse_csv("\xEF\xBB\xBFrepo,number\na/b,1\n", "bom.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].fields, (std::vector<std::string>{"repo", "number"}));
  // Without the mark the same text parses the same: the mark, not the content, was the difference.
  EXPECT_EQ(common::parse_csv("repo,number\na/b,1\n", "plain.csv")[0].fields, rows[0].fields);
}
