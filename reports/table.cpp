#include "reports/table.hpp"

#include <cstdio>
#include <cstdlib>

#include "common/error.hpp"

namespace faultline::reports {

namespace {

// count / total with `decimals` digits after the point, rounded half away from zero, in integers:
// floor((2·|c|·10^d + t) / (2t)) units of 10^-d.
std::string rounded_ratio(long long count, long long total, int decimals) {
  long long unit = 1;
  for (int i = 0; i < decimals; ++i) unit *= 10;
  long long magnitude = total <= 0 ? 0 : (2 * std::llabs(count) * unit + total) / (2 * total);
  std::string fractional = std::to_string(magnitude % unit);
  // Appended piecewise: "-" + string + … trips GCC 12's -Wrestrict at -O3.
  std::string out = count < 0 && magnitude > 0 ? "-" : "";
  out += std::to_string(magnitude / unit);
  out += '.';
  out.append(static_cast<size_t>(decimals) - fractional.size(), '0');
  out += fractional;
  return out;
}

}  // namespace

std::string percent(long long count, long long total) {
  std::string out = rounded_ratio(100 * count, total, 2);
  out += '%';
  return out;
}

std::string fraction(long long count, long long total) { return rounded_ratio(count, total, 6); }

size_t Table::column(const std::string& column_id) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].id == column_id) return i;
  }
  throw Error("report table " + id + ": no column '" + column_id + "'");
}

const char* row_kind_name(RowKind kind) {
  switch (kind) {
    case RowKind::subtotal:
      return "subtotal";
    case RowKind::total:
      return "total";
    default:
      return "data";
  }
}

const char* column_type_name(ColumnType type) {
  switch (type) {
    case ColumnType::count:
      return "count";
    case ColumnType::share:
      return "share";
    case ColumnType::measure:
      return "measure";
    default:
      return "text";
  }
}

namespace {

std::string printed(const char* format, double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, x == 0 ? 0.0 : x);  // no "-0.000"
  return buffer;
}

}  // namespace

std::string measure_text(double x) { return printed("%.3f", x); }
std::string measure_fraction(double x) { return printed("%.6f", x); }

}  // namespace faultline::reports
