#include "reports/table_display.hpp"

#include <algorithm>
#include <map>

namespace faultline::reports {

namespace {

std::string shown(const Column& column, const Value& v) {
  switch (column.type) {
    case ColumnType::count:
      return std::to_string(v.count);
    case ColumnType::share:
      return percent(v.count, v.of);
    case ColumnType::measure:
      return measure_text(v.measure);
    default:
      return v.text;
  }
}

DisplayGrid unspread_grid(const Table& t) {
  DisplayGrid grid;
  std::vector<size_t> columns;
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].heading.empty()) continue;
    columns.push_back(i);
    grid.header.push_back(t.columns[i].heading);
    grid.types.push_back(t.columns[i].type);
  }
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (size_t i : columns) cells.push_back(shown(t.columns[i], row.values[i]));
    grid.rows.push_back(std::move(cells));
    grid.kinds.push_back(row.kind);
  }
  return grid;
}

DisplayGrid spread_grid(const Table& t, const Spread& spread) {
  const size_t across = t.column(spread.across), across_name = t.column(spread.across_name);
  std::vector<size_t> measures;
  for (const auto& id : spread.measures) measures.push_back(t.column(id));
  std::vector<size_t> identity;  // shown columns that say which row an observation belongs to
  for (size_t i = 0; i < t.columns.size(); ++i) {
    bool is_measure = std::find(measures.begin(), measures.end(), i) != measures.end();
    if (!t.columns[i].heading.empty() && i != across && i != across_name && !is_measure)
      identity.push_back(i);
  }
  // Groups and rows in the order of their first observation.
  std::vector<std::string> groups;
  std::map<std::string, size_t> group_of;
  std::map<std::vector<std::string>, size_t> row_of;
  DisplayGrid grid;
  for (size_t i : identity) {
    grid.header.push_back(t.columns[i].heading);
    grid.types.push_back(t.columns[i].type);
  }
  std::vector<std::map<std::pair<size_t, size_t>, std::string>> cells;  // row → (group, measure) → text
  for (const auto& row : t.rows) {
    const std::string& key = row.values[across].text;
    if (group_of.emplace(key, groups.size()).second) {
      groups.push_back(key);
      for (size_t m : measures) {
        const std::string& name = row.values[across_name].text;
        grid.header.push_back(measures.size() == 1 ? name : name + " " + t.columns[m].heading);
        grid.types.push_back(t.columns[m].type);
      }
    }
    std::vector<std::string> id_cells;
    for (size_t i : identity) id_cells.push_back(shown(t.columns[i], row.values[i]));
    auto [it, added] = row_of.emplace(id_cells, grid.rows.size());
    if (added) {
      grid.rows.push_back(id_cells);
      grid.kinds.push_back(row.kind);
      cells.emplace_back();
    } else if (row.kind == RowKind::data) {
      grid.kinds[it->second] = RowKind::data;
    }
    for (size_t m = 0; m < measures.size(); ++m) {
      cells[it->second][{group_of[key], m}] = shown(t.columns[measures[m]], row.values[measures[m]]);
    }
  }
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    for (size_t g = 0; g < groups.size(); ++g) {
      for (size_t m = 0; m < measures.size(); ++m) {
        auto it = cells[r].find({g, m});
        grid.rows[r].push_back(it == cells[r].end() ? "" : it->second);
      }
    }
  }
  return grid;
}

}  // namespace

DisplayGrid display_grid(const Table& t) { return t.spread ? spread_grid(t, *t.spread) : unspread_grid(t); }

}  // namespace faultline::reports
