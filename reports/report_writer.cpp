#include "reports/report_writer.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/version.hpp"
#include "reports/findings.hpp"
#include "reports/html_report.hpp"
#include "reports/table_formats.hpp"
#include "reports/tables.hpp"

namespace faultline::reports {

namespace {

// Content: the whole text, or a producer of its pieces (StagedFiles takes either).
template <class Content>
void write_file(common::StagedFiles& staged, const std::filesystem::path& path, const Content& content,
                ReportSummary& summary) {
  staged.add(path.string(), content);
  summary.files.push_back(path.string());
}

}  // namespace

ReportSummary write_report(const ReportData& data, const std::string& out_dir,
                           const std::set<std::string>& formats) {
  for (const auto& f : formats) {
    if (f != "md" && f != "csv" && f != "tex" && f != "json" && f != "html") {
      throw Error("report: unknown format '" + f + "' (use md, csv, tex, json, html)");
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) throw Error(out_dir + ": cannot create the report directory: " + ec.message());
  std::filesystem::path dir(out_dir);

  ReportSummary summary;
  summary.cases = static_cast<int>(data.cases.size());
  summary.predicted = static_cast<int>(data.predicted_cases.size());
  summary.cases_with_source_reproducer = cases_with_source_reproducer(data.cases);
  std::set<std::string> labeled_causes;
  for (const auto& c : data.cases) labeled_causes.insert(c.root_cause);
  auto reproduced = reproduced_root_causes(data);
  summary.root_causes_labeled = static_cast<int>(labeled_causes.size());
  for (const auto& rc : labeled_causes) summary.root_causes_reproduced += reproduced.count(rc);
  auto tables = all_tables(data);
  summary.findings = compute_findings(data);

  std::string markdown = "# faultline report\n\n## Findings\n\n";
  for (size_t i = 0; i < summary.findings.size(); ++i)
    markdown += std::to_string(i + 1) + ". " + summary.findings[i] + "\n";
  nlohmann::json all = {{"cases", data.cases.size()},
                        {"cases_with_source_reproducer", summary.cases_with_source_reproducer},
                        {"root_causes_labeled", summary.root_causes_labeled},
                        {"root_causes_reproduced", summary.root_causes_reproduced},
                        {"predicted", summary.predicted},
                        {"findings", summary.findings},
                        {"tables", nlohmann::json::array()}};
  // Every file is written whole before any is put in place: a full disk or a kill while writing leaves the
  // previous report as it was, never files of two runs side by side (only a kill within the renames could).
  common::StagedFiles staged;
  std::set<std::string> held;
  for (const auto& t : tables) {
    held.insert(t.id);
    if (formats.count("csv")) write_file(staged, dir / (t.id + ".csv"), to_csv(t), summary);
    if (formats.count("tex")) write_file(staged, dir / (t.id + ".tex"), to_latex(t), summary);
    if (formats.count("json")) write_file(staged, dir / (t.id + ".json"), to_json(t).dump(2) + "\n", summary);
    markdown += '\n';
    markdown += to_markdown(t);  // not "\n" + …: GCC 12 warns (-Wrestrict) at -O3
    all["tables"].push_back(to_json(t));
  }
  markdown += std::string("\n---\nWritten by faultline ") + common::version() + ".\n";
  all["faultline_version"] = common::version();
  if (formats.count("md")) write_file(staged, dir / "report.md", markdown, summary);
  if (formats.count("json")) write_file(staged, dir / "report.json", all.dump(2) + "\n", summary);
  if (formats.count("html")) {
    write_file(
        staged, dir / "index.html",
        [&](const common::PieceWriter& write) { write_html(data, tables, summary.findings, write); },
        summary);
  }
  // A table an earlier report held and this one does not (predictions, an evaluation) would pass for this
  // report's beside it; in the formats this report writes it goes.
  for (const auto& id : optional_table_ids()) {
    if (held.count(id)) continue;
    for (const char* format : {"csv", "tex", "json"}) {
      if (formats.count(format)) staged.remove_on_commit((dir / (id + "." + format)).string());
    }
  }
  staged.commit();
  return summary;
}

}  // namespace faultline::reports
