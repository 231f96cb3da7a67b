#include <gtest/gtest.h>

#include "cli/text_table.hpp"

using faultline::cli::text_table;

TEST(TextTable, NamesAlignLeftNumbersRightWidthsInCharacters) {
  // Column widths by hand: "name"/"int16—bound" (11 characters, the dash is 3 bytes) and "n"/"1234".
  std::string table = text_table({{"name", "n", "share"}, {"int16—bound", "7", "2.50%"}, {"x", "1234", "-"}});
  // Row by row: cell, padding to the column's width, two spaces between columns; "-" counts as numeric.
  EXPECT_EQ(table, "name" + std::string(9, ' ') + "n" + std::string(5, ' ') + "share\n" + "int16—bound" +
                       std::string(5, ' ') + "7" + std::string(2, ' ') + "2.50%\n" + "x" +
                       std::string(12, ' ') + "1234" + std::string(6, ' ') + "-\n");
}
