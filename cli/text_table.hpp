// Aligned plain-text tables for people; machines use --json.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace faultline::cli {

// A number with a fixed count of decimals, for text output.
inline std::string fixed(double value, int digits = 3) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

inline std::string text_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      // Left-align the first column (names), right-align the rest (numbers).
      std::string pad(widths[i] - row[i].size(), ' ');
      line += i == 0 ? row[i] + pad : "  " + pad + row[i];
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace faultline::cli
