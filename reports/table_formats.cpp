#include "reports/table_formats.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "common/csv.hpp"
#include "common/markup_escape.hpp"
#include "reports/table_display.hpp"

namespace faultline::reports {

namespace {

using common::markdown_escape;

// " cell |", appended piecewise: " " + string + … trips GCC 12's -Wrestrict at -O3.
void append_cell(std::string& out, const std::string& cell) {
  out += ' ';
  out += cell;
  out += " |";
}

}  // namespace

std::string to_markdown(const Table& t) {
  DisplayGrid grid = display_grid(t);
  std::string out = "### " + markdown_escape(t.title) + "\n\n|";
  for (const auto& h : grid.header) append_cell(out, markdown_escape(h));
  out += "\n|";
  for (auto type : grid.types) out += type == ColumnType::text ? ":---|" : "---:|";
  out += "\n";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    out += "|";
    for (const auto& raw : grid.rows[r]) {
      std::string cell = markdown_escape(raw);
      append_cell(out, grid.kinds[r] != RowKind::data && !cell.empty() ? "**" + cell + "**" : cell);
    }
    out += "\n";
  }
  if (!t.note.empty()) {
    out += '\n';
    out += markdown_escape(t.note);
    out += '\n';
  }
  return out;
}

namespace {

// What a program reads in a cell: the text, the count, or the share as a fraction.
std::string machine_cell(const Column& column, const Value& v) {
  switch (column.type) {
    case ColumnType::count:
      return std::to_string(v.count);
    case ColumnType::share:
      return fraction(v.count, v.of);
    case ColumnType::measure:
      return measure_fraction(v.measure);
    default:
      return v.text;
  }
}

}  // namespace

std::string to_csv(const Table& t) {
  std::ostringstream out;
  std::vector<std::string> header;
  for (const auto& c : t.columns) header.push_back(c.id);
  header.push_back("row_kind");
  common::write_csv_row(out, header);
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (size_t i = 0; i < t.columns.size(); ++i) cells.push_back(machine_cell(t.columns[i], row.values[i]));
    cells.push_back(row_kind_name(row.kind));
    common::write_csv_row(out, cells);
  }
  return out.str();
}

std::string latex_escape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // Pairs that TeX's fonts set as one glyph (-- an en dash, '' a closing quote, << a guillemet in T1,
    // !` an inverted mark) are kept apart, so that a name prints as it is stored.
    if (i + 1 < text.size() && std::string_view("-`'<>,!?").find(c) != std::string_view::npos &&
        std::string_view("-`'<>,").find(text[i + 1]) != std::string_view::npos) {
      out += c;
      out += "{}";
      continue;
    }
    switch (c) {
      case '&':
      case '%':
      case '$':
      case '#':
      case '_':
      case '{':
      case '}':
        out += '\\';
        out += c;
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      case '\\':
        out += "\\textbackslash{}";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_escape(const std::string& text) { return common::escape_markup(text); }

namespace {

// A block of at most this many number columns fits an article's text width in \small with rotated
// headings; wider grids are split into blocks that repeat the leading text columns.
constexpr size_t kLatexNumberColumnsPerBlock = 8;
// Text cells longer than this wrap in a ragged-right paragraph column instead of widening the table.
constexpr size_t kLatexLongText = 40;
// When a number heading of a block is longer than this, the block's number headings are set rotated (all
// of them, for an even look), so that headings do not set the columns' widths.
constexpr size_t kLatexLongHeading = 8;

std::string latex_column_spec(const DisplayGrid& grid, size_t column) {
  if (grid.types[column] != ColumnType::text) return "r";
  for (const auto& row : grid.rows) {
    if (row[column].size() > kLatexLongText) return ">{\\raggedright\\arraybackslash}p{12em}";
  }
  return "l";
}

std::string latex_heading(const DisplayGrid& grid, size_t column, bool rotate_numbers) {
  std::string heading = latex_escape(grid.header[column]);
  if (rotate_numbers && grid.types[column] != ColumnType::text) return "\\rotatebox{90}{" + heading + "}";
  return heading;
}

// One tabular of the grid's `columns`, shrunk to the line width only when it is still wider (the last
// resort: splitting and rotated headings come first).
std::string latex_block(const DisplayGrid& grid, const std::vector<size_t>& columns) {
  std::string out = "\\sbox0{\\begin{tabular}{";
  for (size_t c : columns) out += latex_column_spec(grid, c);
  out += "}\n\\toprule\n";
  bool rotate = false;
  for (size_t c : columns) {
    rotate = rotate || (grid.types[c] != ColumnType::text && grid.header[c].size() > kLatexLongHeading);
  }
  for (size_t i = 0; i < columns.size(); ++i)
    out += (i ? " & " : "") + latex_heading(grid, columns[i], rotate);
  out += " \\\\\n\\midrule\n";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    if (grid.kinds[r] != RowKind::data && (r == 0 || grid.kinds[r - 1] != grid.kinds[r])) {
      out += "\\midrule\n";
    }
    for (size_t i = 0; i < columns.size(); ++i)
      out += (i ? " & " : "") + latex_escape(grid.rows[r][columns[i]]);
    out += " \\\\\n";
  }
  out +=
      "\\bottomrule\n\\end{tabular}}%\n\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}{!}{\\usebox0}"
      "\\else\\usebox0\\fi\\par\n";
  return out;
}

// The grid's columns in blocks: the leading text columns in each, the rest in runs of at most
// kLatexNumberColumnsPerBlock, cut at a multiple of `group` (a spread table's measures per group).
std::vector<std::vector<size_t>> latex_blocks(const DisplayGrid& grid, size_t group) {
  size_t lead = 0;
  while (lead < grid.types.size() && grid.types[lead] == ColumnType::text) ++lead;
  std::vector<size_t> leading;
  for (size_t c = 0; c < lead; ++c) leading.push_back(c);
  const size_t rest = grid.types.size() - lead;
  if (rest <= kLatexNumberColumnsPerBlock) {
    std::vector<size_t> all = leading;
    for (size_t c = lead; c < grid.types.size(); ++c) all.push_back(c);
    return {all};
  }
  const size_t per_block = std::max<size_t>(group, kLatexNumberColumnsPerBlock / group * group);
  std::vector<std::vector<size_t>> blocks;
  for (size_t start = lead; start < grid.types.size(); start += per_block) {
    std::vector<size_t> block = leading;
    for (size_t c = start; c < std::min(grid.types.size(), start + per_block); ++c) block.push_back(c);
    blocks.push_back(block);
  }
  return blocks;
}

}  // namespace

std::string to_latex(const Table& t) {
  DisplayGrid grid = display_grid(t);
  auto blocks = latex_blocks(grid, t.spread ? t.spread->measures.size() : 1);
  // table* spans both columns of a two-column paper; in one column it is a table like any other.
  const std::string env = blocks.size() > 1 || grid.header.size() > 7 ? "table*" : "table";
  std::string out =
      "% Generated by faultline report; requires \\usepackage{booktabs,graphicx,array}\n\\begin{" + env +
      "}[t]\n\\centering\n\\caption{" + latex_escape(t.title) + "}\n\\label{tab:" + t.id +
      "}\n\\small\n\\setlength{\\tabcolsep}{4pt}\n";
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (b) out += "\n\\medskip\n";
    out += latex_block(grid, blocks[b]);
  }
  if (!t.note.empty()) out += "\n\\medskip\n\\footnotesize " + latex_escape(t.note) + "\n";
  out += "\\end{" + env + "}\n";
  return out;
}

nlohmann::json to_json(const Table& t) {
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : t.columns) {
    columns.push_back({{"id", c.id}, {"heading", c.heading}, {"type", column_type_name(c.type)}});
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : t.rows) {
    nlohmann::json cells = nlohmann::json::object();
    for (size_t i = 0; i < t.columns.size(); ++i) {
      const Value& v = row.values[i];
      switch (t.columns[i].type) {
        case ColumnType::count:
          cells[t.columns[i].id] = v.count;
          break;
        case ColumnType::share:
          cells[t.columns[i].id] = v.of > 0 ? static_cast<double>(v.count) / static_cast<double>(v.of) : 0.0;
          break;
        case ColumnType::measure:
          cells[t.columns[i].id] = v.measure;
          break;
        default:
          cells[t.columns[i].id] = v.text;
      }
    }
    cells["row_kind"] = row_kind_name(row.kind);
    rows.push_back(cells);
  }
  return {{"id", t.id}, {"title", t.title}, {"columns", columns}, {"rows", rows}, {"note", t.note}};
}

}  // namespace faultline::reports
