#include "reports/architecture_table.hpp"

#include <map>
#include <set>

namespace faultline::reports {

namespace {

// "9.0" → "sm_90 (9.0)", "10.0" → "sm_100 (10.0)": the name nvcc's -arch uses, beside the number.
std::string architecture_heading(const std::string& cc) {
  auto dot = cc.find('.');
  std::string digits = dot == std::string::npos ? cc : cc.substr(0, dot) + cc.substr(dot + 1);
  return "sm_" + digits + " (" + cc + ")";
}

}  // namespace

std::optional<Table> architecture_table(const ReportData& data) {
  std::set<std::string> architectures;
  std::map<std::string, std::map<std::string, std::pair<std::string, std::string>>> cells;  // id → cc → outcomes
  for (const auto& r : data.gpu_results_by_architecture) {
    architectures.insert(r.compute_capability);
    auto& cell = cells[r.repro_id][r.compute_capability];
    (r.variant == "buggy" ? cell.first : cell.second) = r.outcome;
  }
  if (architectures.size() < 2) return std::nullopt;
  Table t;
  t.id = "table_reproducer_by_architecture";
  t.title = "Reproducer outcomes by GPU architecture (gpu mode)";
  t.header = {"reproducer"};
  for (const auto& cc : architectures) t.header.push_back(architecture_heading(cc));
  for (const auto& [id, by_cc] : cells) {
    std::vector<std::string> row{id};
    for (const auto& cc : architectures) {
      auto it = by_cc.find(cc);
      auto word = [](const std::string& w) { return w.empty() ? std::string("-") : w; };
      row.push_back(it == by_cc.end() ? "-" : word(it->second.first) + " / " + word(it->second.second));
    }
    t.rows.push_back(row);
    t.total_rows.push_back(false);
  }
  t.note = "Each cell: the latest gpu-mode outcome of the buggy / fixed variant on a device of that compute "
           "capability; - where it did not run there.";
  return t;
}

}  // namespace faultline::reports
