// What people see of a Table: its shown columns as text (percentages for shares), with a table's Spread
// applied, so that Markdown, LaTeX and HTML lay out the same grid.
#pragma once

#include <string>
#include <vector>

#include "reports/table.hpp"

namespace faultline::reports {

struct DisplayGrid {
  std::vector<std::string> header;
  std::vector<ColumnType> types;  // parallel to header: text columns are set left, numbers right
  std::vector<std::vector<std::string>> rows;
  std::vector<RowKind> kinds;  // parallel to rows
};

// A merged row is a data row when any of its observations is one (a symptom's row holds its repository
// total too), else it takes the kind of its first observation.
DisplayGrid display_grid(const Table& t);

}  // namespace faultline::reports
