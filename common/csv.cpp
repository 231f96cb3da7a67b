#include "common/csv.hpp"

#include <algorithm>
#include <regex>
#include <string_view>

#include "common/error.hpp"
#include "common/text_file.hpp"
#include "common/utf8.hpp"

namespace faultline::common {

namespace {

constexpr char kFormulaGuard = '\'';
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool is_plain_number(const std::string& cell) {
  static const std::regex number(R"([-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
  return std::regex_match(cell, number);
}

bool needs_formula_guard(const std::string& cell) {
  if (cell.empty()) return false;
  if (cell[0] == kFormulaGuard) return true;
  return std::string_view("=+-@\t\r").find(cell[0]) != std::string_view::npos && !is_plain_number(cell);
}

// The inverse of the guard: ' followed by a character that made the writer add it.
std::string without_formula_guard(const std::string& cell) {
  if (cell.size() >= 2 && cell[0] == kFormulaGuard &&
      std::string_view("=+-@\t\r'").find(cell[1]) != std::string_view::npos) {
    return cell.substr(1);
  }
  return cell;
}

// Whether the byte at `i` ends a line: LF, or CR not followed by LF (a CRLF ends at its LF).
bool ends_line(std::string_view text, size_t i) {
  return text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'));
}

// The 1-based line of the byte at `at`.
int line_of(std::string_view text, size_t at) {
  int line = 1;
  for (size_t i = 0; i < at; ++i) line += ends_line(text, i);
  return line;
}

// The 1-based line holding the first byte that is not valid UTF-8, or 0 when all is valid. Neither line
// end occurs inside a multi-byte character, so lines can be checked one by one.
int first_invalid_utf8_line(std::string_view text) {
  int line = 1;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && !ends_line(text, i)) continue;
    if (!is_valid_utf8(text.substr(start, i - start))) return line;
    ++line;
    start = i + 1;
  }
  return 0;
}

// parse_csv refuses a NUL byte, so none is written (issue text from JSON may hold \u0000): each becomes
// U+FFFD, the character that stands for one that cannot be shown.
std::string without_nul(const std::string& cell) {
  if (cell.find('\0') == std::string::npos) return cell;
  std::string out;
  for (char c : cell) {
    if (c == '\0') {
      out += "\xEF\xBF\xBD";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::vector<CsvRow> parse_csv(const std::string& text, const std::string& origin) {
  if (int line = first_invalid_utf8_line(text)) {
    throw Error(origin + ":" + std::to_string(line) + ": not valid UTF-8 (save the file as UTF-8)");
  }
  // The store keeps text up to a NUL byte: a cell holding one would lose the rest of itself unseen.
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    throw Error(origin + ":" + std::to_string(line_of(text, nul)) + ": a NUL byte (not a text file?)");
  }
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string field;
  bool quoted = false;
  bool field_was_quoted = false;
  int line = 1;
  row.line = 1;
  auto end_field = [&] {
    row.fields.push_back(without_formula_guard(field));
    field.clear();
    field_was_quoted = false;
  };
  auto end_row = [&] {
    end_field();
    bool blank = row.fields.size() == 1 && row.fields[0].empty();
    if (!blank) rows.push_back(row);
    row = CsvRow{};
    row.line = line;
  };
  size_t start = text.compare(0, kByteOrderMark.size(), kByteOrderMark) == 0 ? kByteOrderMark.size() : 0;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        line += ends_line(text, i);
        field += c;
      }
      continue;
    }
    switch (c) {
      case '"':
        if (!field.empty() || field_was_quoted) {
          throw Error(origin + ":" + std::to_string(line) + ": stray quote inside an unquoted field");
        }
        quoted = true;
        field_was_quoted = true;
        break;
      case ',':
        end_field();
        break;
      case '\r':  // a CRLF ends its row at the LF; a CR alone (old Mac line ends) ends one itself
      case '\n':
        if (!ends_line(text, i)) break;
        ++line;
        end_row();
        break;
      default:
        if (field_was_quoted) {
          throw Error(origin + ":" + std::to_string(line) + ": text after a closing quote");
        }
        field += c;
    }
  }
  if (quoted) throw Error(origin + ":" + std::to_string(row.line) + ": quoted field is never closed");
  if (!field.empty() || !row.fields.empty() || field_was_quoted) end_row();
  return rows;
}

std::vector<CsvRow> read_csv_file(const std::string& path) { return parse_csv(read_text_file(path), path); }

void write_csv_row(std::ostream& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out << ',';
    const std::string cell = without_nul(fields[i]);
    const std::string f = needs_formula_guard(cell) ? kFormulaGuard + cell : cell;
    if (f.find_first_of(",\"\n\r") == std::string::npos) {
      out << f;
      continue;
    }
    out << '"';
    for (char c : f) {
      if (c == '"') out << '"';
      out << c;
    }
    out << '"';
  }
  out << '\n';
}

}  // namespace faultline::common
