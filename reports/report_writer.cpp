#include "reports/report_writer.hpp"

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/one_line.hpp"
#include "common/text_file.hpp"
#include "common/version.hpp"
#include "reports/findings.hpp"
#include "reports/html_report.hpp"
#include "reports/table_formats.hpp"
#include "reports/tables.hpp"

namespace faultline::reports {

namespace {

// Marks a directory as a report faultline wrote, which the next report may replace whole.
constexpr const char* kReportMarker = ".faultline-report";

// A file of the report: its name and its content, the whole text or a producer of its pieces
// (common::write_file_atomically takes either).
struct ReportFile {
  std::string name;
  std::string text;
  std::function<void(const common::PieceWriter&)> produce;
};

// The report replaces `out_dir` whole, so a directory there must hold nothing but a report's files: those
// this report writes, and those the marker of the report there lists (another choice of formats, tables
// that come and go with the data). A directory without a marker is taken for an older faultline's report
// when it holds only files this report writes. Anything else would be lost with it: refused.
void require_replaceable(const std::string& out_dir, const std::vector<ReportFile>& files) {
  common::require_directory_or_nothing(out_dir);
  std::error_code error;
  if (!std::filesystem::is_directory(out_dir, error)) return;
  std::set<std::string> ours = {kReportMarker};
  for (const auto& f : files) ours.insert(f.name);
  const std::string marker = out_dir + "/" + kReportMarker;
  if (std::filesystem::is_regular_file(marker, error)) {
    std::istringstream listed(common::read_text_file_at_most(marker, 1 << 20));
    for (std::string name; std::getline(listed, name);) ours.insert(name);
  }
  for (const auto& entry : std::filesystem::directory_iterator(out_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (!ours.count(name) || !entry.is_regular_file(error))
      throw Error(out_dir + ": holds '" + common::one_line(name) +
                  "', which is not a file of a faultline report; a report replaces its directory whole, so "
                  "name a new or empty directory (or one a report wrote)");
  }
  if (error) throw Error(out_dir + ": cannot read the directory: " + error.message());
}

}  // namespace

ReportSummary write_report(const ReportData& data, const std::string& out_dir,
                           const std::set<std::string>& formats) {
  for (const auto& f : formats) {
    if (f != "md" && f != "csv" && f != "tex" && f != "json" && f != "html") {
      throw Error("report: unknown format '" + f + "' (use md, csv, tex, json, html)");
    }
  }
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
  std::vector<ReportFile> files;
  for (const auto& t : tables) {
    if (formats.count("csv")) files.push_back({t.id + ".csv", to_csv(t), {}});
    if (formats.count("tex")) files.push_back({t.id + ".tex", to_latex(t), {}});
    if (formats.count("json")) files.push_back({t.id + ".json", to_json(t).dump(2) + "\n", {}});
    markdown += '\n';
    markdown += to_markdown(t);  // not "\n" + …: GCC 12 warns (-Wrestrict) at -O3
    all["tables"].push_back(to_json(t));
  }
  markdown += std::string("\n---\nWritten by faultline ") + common::version() + ".\n";
  all["faultline_version"] = common::version();
  if (formats.count("md")) files.push_back({"report.md", markdown, {}});
  if (formats.count("json")) files.push_back({"report.json", all.dump(2) + "\n", {}});
  if (formats.count("html")) {
    files.push_back({"index.html", "", [&](const common::PieceWriter& write) {
                       write_html(data, tables, summary.findings, write);
                     }});
  }
  // The whole directory is written beside the old one and swapped in: a kill or a full disk leaves the old
  // report whole, never some files of each run.
  require_replaceable(out_dir, files);
  const std::filesystem::path parent = std::filesystem::absolute(out_dir).parent_path();
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) throw Error(out_dir + ": cannot create the directory it goes in: " + ec.message());
  common::replace_directory_atomically(out_dir, [&](const std::string& staging) {
    for (const auto& f : files) {
      const std::string path = staging + "/" + f.name;
      f.produce ? common::write_file_atomically(path, f.produce) : common::write_file_atomically(path, f.text);
    }
    // The marker lists the report's files, the ones the next report may replace with the directory.
    std::string listed = "# faultline report: the next 'faultline report' into this directory replaces it whole\n";
    for (const auto& f : files) listed += f.name + "\n";
    common::write_file_atomically(staging + "/" + kReportMarker, listed);
  }, 0777);  // as a directory made with mkdir: readable by whom the umask allows, as the files in it are
  for (const auto& f : files) summary.files.push_back((std::filesystem::path(out_dir) / f.name).string());
  return summary;
}

}  // namespace faultline::reports
