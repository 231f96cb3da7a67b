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

// Characters on screen, not bytes: UTF-8 continuation bytes do not count.
inline size_t display_width(const std::string& s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// Numbers (counts, shares, kappas) line up on the right; names and ids on the left.
inline bool looks_numeric(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '%' || c == ',' || c == '+';
  });
}

inline std::string text_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      std::string pad(widths[i] - display_width(row[i]), ' ');
      std::string cell = looks_numeric(row[i]) ? pad + row[i] : row[i] + pad;
      line += (i == 0 ? "" : "  ") + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace faultline::cli
