// A report table as data: typed columns (text, count, share, measure), one observation per row, each row
// marked data, subtotal or total. CSV and JSON write it as it is, for programs; Markdown, LaTeX and HTML show
// it through display_grid() (reports/table_display.hpp), which may spread one column across, as the study's
// Table II spreads the repositories.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace faultline::reports {

enum class ColumnType { text, count, share, measure };
enum class RowKind { data, subtotal, total };

struct Column {
  std::string id;       // stable id: the CSV header and the JSON key ("symptom_id", "count", "share")
  std::string heading;  // what a person reads; empty for columns only programs need (the ids)
  ColumnType type = ColumnType::text;
};

// One cell. A share keeps its count and total, so that people read a percentage and programs a fraction;
// a measure is a figure of merit that is no share of anything (macro-F1, kappa, a threshold).
struct Value {
  std::string text;     // text columns
  long long count = 0;  // count columns; the numerator of a share
  long long of = 0;     // the denominator of a share
  double measure = 0;   // measure columns
  static Value of_text(std::string text) { return {std::move(text), 0, 0, 0}; }
  static Value of_count(long long n) { return {"", n, 0, 0}; }
  static Value of_share(long long n, long long total) { return {"", n, total, 0}; }
  static Value of_measure(double x) { return {"", 0, 0, x}; }
};

struct Row {
  std::vector<Value> values;  // parallel to Table::columns
  RowKind kind = RowKind::data;
};

// How people see a long table: the values of column `across` become groups of columns, headed by the
// text of `across_name`, each holding the `measures`; rows that agree on the other shown columns merge.
struct Spread {
  std::string across;
  std::string across_name;
  std::vector<std::string> measures;
};

struct Table {
  std::string id;  // file stem: table1_funnel, …
  std::string title;
  std::vector<Column> columns;
  std::vector<Row> rows;
  std::string note;
  std::optional<Spread> spread;

  // Index of the column with this id; throws faultline::Error naming the table when there is none.
  size_t column(const std::string& column_id) const;
};

// count / total as a percentage with two decimals, rounded half away from zero ("27.33%"), computed in
// integers so that 1/8 = 12.5% prints as 12.50% and 1/600 as 0.17% on every platform. Empty total → "0.00%".
std::string percent(long long count, long long total);
// count / total as a fraction with six decimals, rounded the same way ("0.273333"); empty total → "0.000000".
std::string fraction(long long count, long long total);

const char* row_kind_name(RowKind kind);        // "data", "subtotal", "total"
const char* column_type_name(ColumnType type);  // "text", "count", "share", "measure"
// A measure as people read it (three decimals) and as programs read it (six decimals).
std::string measure_text(double x);
std::string measure_fraction(double x);

}  // namespace faultline::reports
