#include "common/csv.hpp"


#include "common/error.hpp"
#include "common/text_file.hpp"

namespace faultline::common {

std::vector<CsvRow> parse_csv(const std::string& text, const std::string& origin) {
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string field;
  bool quoted = false;
  bool field_was_quoted = false;
  int line = 1;
  row.line = 1;
  auto end_field = [&] {
    row.fields.push_back(field);
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
  for (size_t i = 0; i < text.size(); ++i) {
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
        if (c == '\n') ++line;
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
      case '\r':
        break;
      case '\n':
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
    const std::string& f = fields[i];
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
