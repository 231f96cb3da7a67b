// RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace faultline::common {

struct CsvRow {
  int line = 0;  // line of the file where the row starts (1-based)
  std::vector<std::string> fields;
};

// Throws faultline::Error naming `origin` and the line on an unterminated quote or stray quote.
// A UTF-8 byte order mark at the start is skipped; cells neutralised by write_csv_row are restored.
std::vector<CsvRow> parse_csv(const std::string& text, const std::string& origin);
std::vector<CsvRow> read_csv_file(const std::string& path);

// Spreadsheet programs run a cell that starts with = + - @ tab or CR as a formula, and issue titles come
// from the internet: such a cell (unless it is a plain number) is written with a leading ', as
// spreadsheet-safe CSV writers do; so is a cell that already starts with ', so that reading is exact.
// A NUL byte, which parse_csv refuses, is written as U+FFFD, so a sheet of issue text reads back.
void write_csv_row(std::ostream& out, const std::vector<std::string>& fields);

}  // namespace faultline::common
