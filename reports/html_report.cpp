#include "reports/html_report.hpp"

#include <cstdio>
#include <map>

#include "common/version.hpp"
#include "reports/svg_charts.hpp"
#include "reports/table_display.hpp"
#include "reports/table_formats.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::reports {

namespace {

const char* const kStyle = R"css(
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #eee; text-align: right; }
th.text, td.text, #reproducers td, #reproducers th, #cases td, #cases th { text-align: left; }
#reproducers .num { text-align: right; }
td:first-child, #cases td { white-space: nowrap; }
#cases td:nth-child(2) { white-space: normal; min-width: 16em; max-width: 28em; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
.table-box { width: fit-content; max-width: 100%; overflow-x: auto; margin: 1em 0; border: 1px solid #ddd; }
.table-box.tall { max-height: 36em; overflow-y: auto; }
.table-box.tall thead th { position: sticky; top: 0; background: #fff; box-shadow: 0 1px 0 #ccc; }
figure svg { max-width: 100%; height: auto; }
tr.total td { font-weight: bold; border-top: 1px solid #999; }
.provenance { background: #f4f7fb; padding: 0.8em 1em; border-radius: 4px; }
.outcome-pass, .outcome-reproduced { color: #1b7f3b; } .outcome-fail, .outcome-not-reproduced { color: #b00020; }
.outcome-skipped { color: #777; } .outcome-built, .outcome-modeled { color: #8a6d00; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }
)css";

// Issue URLs come from the internet: only a page on the GitHub host becomes a link, since a javascript: or
// data: URL would run in the reader's browser; any other URL is shown as text.
std::string issue_cell(const Case& c, const std::string& link_host) {
  if (!link_host.empty() && link_host.back() == '/' && c.url.rfind(link_host, 0) == 0) {
    return "<a href=\"" + html_escape(c.url) + "\">" + html_escape(c.issue) + "</a>";
  }
  return html_escape(c.issue) + " <code class=\"unlinked-url\">" + html_escape(c.url) + "</code>";
}

std::string table_html(const Table& t) {
  DisplayGrid grid = display_grid(t);
  std::string out = "<div class=\"table-box\"><table id=\"" + t.id + "\"><caption>" + html_escape(t.title) +
                    "</caption><thead><tr>";
  for (size_t c = 0; c < grid.header.size(); ++c) {
    out += grid.types[c] == ColumnType::text ? "<th class=\"text\">" : "<th>";
    out += html_escape(grid.header[c]) + "</th>";
  }
  out += "</tr></thead><tbody>";
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    out += grid.kinds[r] == RowKind::data ? "<tr>" : "<tr class=\"total\">";
    for (size_t c = 0; c < grid.rows[r].size(); ++c) {
      out += grid.types[c] == ColumnType::text ? "<td class=\"text\">" : "<td>";
      out += html_escape(grid.rows[r][c]) + "</td>";
    }
    out += "</tr>";
  }
  out += "</tbody></table></div>";
  if (!t.note.empty()) out += "<p><small>" + html_escape(t.note) + "</small></p>";
  return out;
}

std::string outcome(const std::string& o) {
  if (o.empty()) return "<span class=\"outcome-skipped\">not run</span>";
  return "<span class=\"outcome-" + html_escape(o) + "\">" + html_escape(o) + "</span>";
}

// An outcome with the mode it is from, as the buggy and the fixed variant's may stand in different modes.
std::string outcome_in_mode(const std::string& o, const std::string& mode) {
  return o.empty() ? outcome(o) : outcome(o) + " (" + html_escape(mode) + ")";
}

const taxonomy::Taxonomy& tax() { return taxonomy::Taxonomy::builtin(); }

std::string provenance_html(const ReportData& data) {
  std::map<std::string, int> provenance;
  for (const auto& c : data.cases) ++provenance[c.provenance];
  std::string html = "<div class=\"provenance\" id=\"provenance\"><strong>Label provenance.</strong> " +
                     std::to_string(provenance["agreed"]) + " manual labels where the raters agreed, " +
                     std::to_string(provenance["adjudicated"]) +
                     " settled by adjudication; the tables, charts and findings count these.";
  if (!data.predicted_cases.empty()) {
    html += " Besides them, " + std::to_string(data.predicted_cases.size()) +
            " screened-in candidates without a final label carry a classifier prediction, counted only in "
            "the tables titled as predictions.";
  }
  if (data.not_predicted.total() > 0)
    html.append(" ").append(html_escape(candidates_not_predicted_note(data.not_predicted)));
  if (data.audit_kappa) {
    char b[160];
    std::snprintf(b, sizeof b, " Audit: %s %.3f over %d issues labeled by all %d raters (study: %.2f).",
                  audit_statistic(data.audit_raters).c_str(), *data.audit_kappa, data.audit_n.value_or(0),
                  data.audit_raters, tax().study().kappa);
    html += b;
  }
  return html + "</div>\n";
}

std::string charts_html(const ReportData& data) {
  return "<h2>Charts</h2>\n<figure id=\"chart-symptoms\">" + symptom_stack_chart(data) +
         "<figcaption>Symptoms per repository (stacked).</figcaption></figure>\n"
         "<figure id=\"chart-heatmap\">" +
         heat_map_chart(data) +
         "<figcaption>Root cause × symptom: darker cells hold more issues (legend below the "
         "grid).</figcaption></figure>\n"
         "<figure id=\"chart-funnel\">" +
         funnel_chart(data) +
         "<figcaption>From all stored issues to the candidate pool, the sample and the final labeled set. " +
         html_escape(funnel::funnel_note(data.funnel)) +
         "</figcaption></figure>\n<figure id=\"chart-shares\">" + share_chart(data) +
         "<figcaption>Each category's share in this dataset and in the study, symptoms and root causes "
         "apart.</figcaption></figure>\n";
}

std::string reproducers_html(const ReportData& data) {
  std::string html =
      "<h2>Reproducers</h2>\n<div class=\"table-box tall\"><table "
      "id=\"reproducers\"><thead><tr><th>Reproducer</th><th>Root cause</th><th class=\"num\">Modeled on</th>"
      "<th class=\"num\">Related cases</th><th>Buggy</th><th>Fixed</th></tr></thead><tbody>";
  // Cases per reproducer: those it was modeled on, apart from those it only shares a root cause with.
  std::map<std::string, int> source_cases, related_cases;
  for (const auto& c : data.cases) {
    for (const auto& r : c.reproducers) ++(r.how == "source" ? source_cases : related_cases)[r.id];
  }
  for (const auto& [id, status] : data.reproducers) {
    std::string root_cause = status.root_cause.empty() ? "" : tax().root_cause(status.root_cause).name;
    html += "<tr id=\"repro-" + html_escape(id) + "\"><td title=\"" + html_escape(status.title) + "\">" +
            html_escape(id) + "</td><td>" + html_escape(root_cause) + "</td><td class=\"num\">" +
            std::to_string(source_cases[id]) + "</td><td class=\"num\">" + std::to_string(related_cases[id]) +
            "</td><td>" + outcome_in_mode(status.buggy, status.buggy_mode) + "</td><td>" +
            outcome_in_mode(status.fixed, status.fixed_mode) + "</td></tr>";
  }
  return html + "</tbody></table></div>\n";
}

std::string case_row(const ReportData& data, const Case& c) {
  std::string repro;
  for (const auto& r : c.reproducers) {
    auto it = data.reproducers.find(r.id);
    repro += "<a href=\"#repro-" + html_escape(r.id) + "\">" + html_escape(r.id) + "</a> (" + r.how + ") " +
             (it == data.reproducers.end() ? outcome("") : outcome(it->second.fixed)) + " ";
  }
  char confidence[32] = "";
  if (c.provenance == "predicted") std::snprintf(confidence, sizeof confidence, " (p=%.2f)", c.confidence);
  return "<tr><td>" + issue_cell(c, data.issue_link_host) + "</td><td>" + html_escape(c.title) + "</td><td>" +
         html_escape(tax().symptom(c.symptom).name) + "</td><td>" +
         html_escape(tax().root_cause(c.root_cause).name) + "</td><td>" + html_escape(c.provenance) +
         confidence + "</td><td>" + repro + "</td></tr>";
}

// The manual labels first, then (with --with-predictions) the predicted candidates, marked as such. The case
// list is most of a large report's page, so each row is handed on as it is made, never held whole.
void write_cases_html(const ReportData& data, const common::PieceWriter& write) {
  write(
      "<h2>Cases</h2>\n<div class=\"table-box tall\"><table "
      "id=\"cases\"><thead><tr><th>Issue</th><th>Title</th><th>Symptom</th>"
      "<th>Root cause</th><th>Label</th><th>Reproducer</th></tr></thead><tbody>");
  for (const auto* cases : {&data.cases, &data.predicted_cases}) {
    for (const auto& c : *cases) write(case_row(data, c));
  }
  write("</tbody></table></div>\n");
}

}  // namespace

void write_html(const ReportData& data, const std::vector<Table>& tables,
                const std::vector<std::string>& findings, const common::PieceWriter& write) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>faultline "
      "report</title><style>";
  html += kStyle;
  html += "</style></head><body>\n<h1>faultline report</h1>\n<p>Failures of GPU kernel libraries: " +
          std::to_string(data.cases.size()) + " labeled issues, compared with the study " +
          html_escape(tax().study().reference) + ".</p>\n";
  html += provenance_html(data);
  html += "<h2>Findings</h2>\n<ol id=\"findings\">";
  for (const auto& f : findings) html += "<li>" + html_escape(f) + "</li>";
  html += "</ol>\n" + charts_html(data) + "<h2>Tables</h2>\n";
  for (const auto& t : tables) html += table_html(t) + "\n";
  html += reproducers_html(data);
  write(html);
  write_cases_html(data, write);
  write("<footer>Written by faultline " + html_escape(common::version()) + ".</footer>\n</body></html>\n");
}

std::string render_html(const ReportData& data, const std::vector<Table>& tables,
                        const std::vector<std::string>& findings) {
  std::string html;
  write_html(data, tables, findings, [&](std::string_view piece) { html += piece; });
  return html;
}

}  // namespace faultline::reports
