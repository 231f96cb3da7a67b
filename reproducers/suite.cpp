#include "reproducers/suite.hpp"

#include <algorithm>
#include <regex>

#include "datasets/store/issue_store.hpp"
#include "common/markup_escape.hpp"
#include "datasets/store/suite_store.hpp"

namespace faultline::reproducers {

bool SuiteSummary::healthy() const {
  for (const auto& r : results) {
    if (is_failure(r.outcome)) return false;
  }
  return true;
}

SuiteSummary run_suite(datasets::Database& db, const std::vector<Manifest>& manifests,
                       const std::string& mode, const Environment& env,
                       const std::function<void(const RunResult&)>& progress) {
  SuiteSummary summary;
  auto modes = resolve_modes(mode, env);
  db.transaction([&] { summary.run_id = datasets::start_suite_run(db, mode); });
  for (const auto& m : manifests) {
    for (const auto& [run_mode, variant] : planned_runs(m, modes)) {
      RunResult r = run_variant(m, run_mode, variant, env);
      db.transaction([&] {
        datasets::record_suite_result(db, summary.run_id,
                                      {r.id, r.variant, r.mode, r.outcome, r.detail, r.seconds});
      });
      ++summary.counts[r.outcome];
      if (progress) progress(r);
      summary.results.push_back(std::move(r));
    }
  }
  return summary;
}

std::string junit_xml(const std::vector<RunResult>& results) {
  int failures = 0, skipped = 0;
  double total = 0;
  for (const auto& r : results) {
    failures += is_failure(r.outcome);
    skipped += r.outcome == "skipped";
    total += r.seconds;
  }
  char head[256];
  std::snprintf(
      head, sizeof head,
      "<testsuites><testsuite name=\"faultline-reproducers\" tests=\"%zu\" failures=\"%d\" skipped=\"%d\" "
      "time=\"%.3f\">\n",
      results.size(), failures, skipped, total);
  std::string xml = std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") + head;
  for (const auto& r : results) {
    char time[32];
    std::snprintf(time, sizeof time, "%.3f", r.seconds);
    xml += "  <testcase classname=\"" + common::escape_markup(r.mode) + "\" name=\"" +
           common::escape_markup(r.id + "." + r.variant) + "\" time=\"" + time + "\">";
    if (r.outcome == "skipped") {
      xml += "<skipped message=\"" + common::escape_markup(r.detail) + "\"/>";
    } else if (is_failure(r.outcome)) {
      xml += "<failure message=\"" + common::escape_markup(r.outcome) + "\">" +
             common::escape_markup(r.detail) + "</failure>";
    } else {
      xml += "<system-out>" + common::escape_markup(r.outcome + ": " + r.detail) + "</system-out>";
    }
    xml += "</testcase>\n";
  }
  return xml + "</testsuite></testsuites>\n";
}

int register_manifests(datasets::Database& db, const std::vector<Manifest>& manifests) {
  static const std::regex url_re("github\\.com/([^/]+/[^/]+)/issues/([0-9]+)");
  int added = 0;
  db.transaction([&] {
    std::vector<datasets::CatalogEntry> catalog;
    for (const auto& m : manifests) catalog.push_back({m.id, m.title, m.symptom, m.root_cause});
    datasets::replace_reproducer_catalog(db, catalog);
    auto before = datasets::load_reproducer_links(db);
    for (const auto& m : manifests) {
      for (const auto& url : m.issues) {
        std::smatch match;
        if (!std::regex_search(url, match, url_re)) continue;
        auto id = datasets::find_issue(db, match[1].str(), std::stoll(match[2].str()));
        if (!id) continue;
        const auto& existing = before[*id];
        if (std::find(existing.begin(), existing.end(), m.id) == existing.end()) ++added;
        datasets::link_reproducer(db, *id, m.id);
      }
    }
  });
  return added;
}

}  // namespace faultline::reproducers
