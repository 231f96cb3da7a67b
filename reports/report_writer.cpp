#include "reports/report_writer.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reports/findings.hpp"
#include "reports/html_report.hpp"
#include "reports/table_formats.hpp"
#include "reports/tables.hpp"
#include "common/error.hpp"

namespace faultline::reports {

namespace {

void write_file(const std::filesystem::path& path, const std::string& content, ReportSummary& summary) {
  // Write beside, then rename: a reader never sees half a file, and a crash leaves the old one.
  std::filesystem::path temp = path;
  temp += ".tmp";
  {
    std::ofstream out(temp, std::ios::binary);
    if (!out) throw Error(path.string() + ": cannot write the file");
    out << content;
    if (!out.flush()) throw Error(path.string() + ": writing failed (disk full?)");
  }
  std::filesystem::rename(temp, path);
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
  for (const auto& c : data.cases) {
    if (c.reproducers.empty()) continue;
    ++(c.reproducers.front().how == "source" ? summary.cases_with_source_reproducer
                                             : summary.cases_with_related_reproducer);
  }
  auto tables = all_tables(data);
  summary.findings = compute_findings(data);

  std::string markdown = "# faultline report\n\n## Findings\n\n";
  for (size_t i = 0; i < summary.findings.size(); ++i)
    markdown += std::to_string(i + 1) + ". " + summary.findings[i] + "\n";
  nlohmann::json all = {{"cases", data.cases.size()},
                        {"cases_with_source_reproducer", summary.cases_with_source_reproducer},
                        {"cases_with_related_reproducer", summary.cases_with_related_reproducer},
                        {"findings", summary.findings},
                        {"tables", nlohmann::json::array()}};
  for (const auto& t : tables) {
    if (formats.count("csv")) write_file(dir / (t.id + ".csv"), to_csv(t), summary);
    if (formats.count("tex")) write_file(dir / (t.id + ".tex"), to_latex(t), summary);
    if (formats.count("json")) write_file(dir / (t.id + ".json"), to_json(t).dump(2) + "\n", summary);
    markdown += '\n';
    markdown += to_markdown(t);  // not "\n" + …: GCC 12 warns (-Wrestrict) at -O3
    all["tables"].push_back(to_json(t));
  }
  if (formats.count("md")) write_file(dir / "report.md", markdown, summary);
  if (formats.count("json")) write_file(dir / "report.json", all.dump(2) + "\n", summary);
  if (formats.count("html"))
    write_file(dir / "index.html", render_html(data, tables, summary.findings), summary);
  return summary;
}

}  // namespace faultline::reports
