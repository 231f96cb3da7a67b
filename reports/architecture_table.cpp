#include "reports/architecture_table.hpp"

#include <map>
#include <set>

namespace faultline::reports {

namespace {

// "9.0" → "90", "10.0" → "100": the digits of the name nvcc's -arch uses.
std::string architecture_digits(const std::string& cc) {
  auto dot = cc.find('.');
  return dot == std::string::npos ? cc : cc.substr(0, dot) + cc.substr(dot + 1);
}

// "9.0" → "sm_90 (9.0)": that name, beside the number.
std::string architecture_heading(const std::string& cc) {
  return "sm_" + architecture_digits(cc) + " (" + cc + ")";
}

}  // namespace

std::optional<Table> architecture_table(const ReportData& data) {
  std::set<std::string> architectures;
  std::map<std::string, std::map<std::string, std::pair<std::string, std::string>>>
      cells;  // id → cc → outcomes
  for (const auto& r : data.gpu_results_by_architecture) {
    architectures.insert(r.compute_capability);
    auto& cell = cells[r.repro_id][r.compute_capability];
    (r.variant == "buggy" ? cell.first : cell.second) = r.outcome;
  }
  if (architectures.size() < 2) return std::nullopt;
  Table t;
  t.id = "table_reproducer_by_architecture";
  t.title = "Reproducer outcomes by GPU architecture (gpu mode)";
  t.columns = {{"reproducer", "reproducer", ColumnType::text}};
  for (const auto& cc : architectures)
    t.columns.push_back({"sm_" + architecture_digits(cc), architecture_heading(cc), ColumnType::text});
  for (const auto& [id, by_cc] : cells) {
    Row row{{Value::of_text(id)}, RowKind::data};
    for (const auto& cc : architectures) {
      auto it = by_cc.find(cc);
      auto word = [](const std::string& w) { return w.empty() ? std::string("-") : w; };
      row.values.push_back(
          Value::of_text(it == by_cc.end() ? "-" : word(it->second.first) + " / " + word(it->second.second)));
    }
    t.rows.push_back(row);
  }
  t.note =
      "Each cell: the latest gpu-mode outcome of the buggy / fixed variant on a device of that compute "
      "capability; - where it did not run there.";
  return t;
}

}  // namespace faultline::reports
