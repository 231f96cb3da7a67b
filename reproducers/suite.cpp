#include "reproducers/suite.hpp"

#include <map>

#include "common/markup_escape.hpp"
#include "reproducers/environment.hpp"

namespace faultline::reproducers {

std::vector<std::string> run_problems(const std::string& requested_mode,
                                      const std::vector<RunResult>& results) {
  std::vector<std::string> out;
  struct ModeRuns {
    int results = 0, ran = 0;
    const RunResult* first = nullptr;
  };
  std::map<std::string, ModeRuns> modes;
  for (const auto& r : results) {
    const std::string name = run_name(r.id, r.mode, r.variant) + " ";
    if (is_failure(r.outcome)) out.push_back(name + r.outcome);
    // The runner judged the device able to run it; a harness refusing anyway means one of them is wrong.
    if (r.mode == "gpu" && r.skipped_by_harness)
      out.push_back(name + "skipped by the harness on a device the runner expected to run it: " + r.detail);
    ModeRuns& m = modes[r.mode];
    ++m.results;
    m.ran += r.outcome != "skipped";
    if (!m.first) m.first = &r;
  }
  // A mode that ran nothing checked nothing: gpu mode whenever it has results (auto adds it only where a
  // GPU was found), and the mode asked for by name.
  for (const std::string mode : {"build", "host", "gpu"}) {
    if (mode != "gpu" && mode != requested_mode) continue;
    const std::string results_of = mode == "gpu" ? "GPU" : mode;
    const auto it = modes.find(mode);
    if (it != modes.end() && it->second.ran == 0) {
      out.push_back(mode + " mode ran nothing: all " + std::to_string(it->second.results) + " " + results_of +
                    " results were skipped (first: " + it->second.first->detail + ")");
    } else if (it == modes.end() && mode == requested_mode) {
      out.push_back(mode + " mode ran nothing: no reproducer run has a " + mode + " mode");
    }
  }
  return out;
}

std::vector<std::string> SuiteSummary::problems() const { return run_problems(mode, results); }

std::string SuiteSummary::counts_line() const {
  std::string line;
  for (const auto& mode : modes) {
    auto it = counts.find(mode);
    std::string words;
    for (const auto& outcome : outcome_vocabulary()) {
      int n = it == counts.end() || !it->second.count(outcome) ? 0 : it->second.at(outcome);
      if (n > 0) words += (words.empty() ? "" : ", ") + std::to_string(n) + " " + outcome;
    }
    line += (line.empty() ? "" : "; ") + mode + ": " + (words.empty() ? "nothing to run" : words);
  }
  return line;
}

datasets::SuiteResult stored_result(const RunResult& r, std::optional<int64_t> shard) {
  return {r.id,
          r.variant,
          r.mode,
          r.outcome,
          r.detail,
          r.seconds,
          r.stability.runs,
          r.stability.as_expected,
          r.stability.status,
          r.cuda_toolkit,
          r.driver,
          r.compute_capability,
          r.node,
          r.device,
          shard};
}

SuiteSummary summarize(int64_t run_id, const std::string& mode, const std::vector<std::string>& modes,
                       std::vector<RunResult> results) {
  SuiteSummary summary;
  summary.run_id = run_id;
  summary.mode = mode;
  summary.modes = modes;
  for (const auto& r : results) ++summary.counts[r.mode][r.outcome];
  summary.results = std::move(results);
  return summary;
}

SuiteSummary run_suite(datasets::Database& db, const std::vector<Manifest>& manifests,
                       const SuiteOptions& options, const Environment& env,
                       const std::function<void(const RunResult&)>& progress) {
  SuiteSummary summary;
  summary.mode = options.mode;
  summary.modes = resolve_modes(options.mode, env);
  db.transaction([&] { summary.run_id = datasets::start_suite_run(db, options.mode, options.repeat); });
  for (const auto& m : manifests) {
    for (const auto& [run_mode, variant] : planned_runs(m, summary.modes)) {
      RunResult r = run_repeated(m, run_mode, variant, env, options.repeat);
      db.transaction([&] { datasets::record_suite_result(db, summary.run_id, stored_result(r)); });
      ++summary.counts[r.mode][r.outcome];
      if (progress) progress(r);
      summary.results.push_back(std::move(r));
    }
  }
  return summary;
}

std::string junit_xml(const std::vector<JunitSuite>& suites) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>";
  for (const auto& suite : suites) {
    int failures = 0, skipped = 0;
    double total = 0;
    for (const auto& r : suite.results) {
      failures += is_failure(r.outcome);
      skipped += r.outcome == "skipped";
      total += r.seconds;
    }
    char counts[160];
    std::snprintf(counts, sizeof counts, "\" tests=\"%zu\" failures=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
                  suite.results.size(), failures, skipped, total);
    xml += "<testsuite name=\"" + common::escape_markup(suite.name) + counts;
    for (const auto& r : suite.results) {
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
        // JUnit knows only pass, failure and skip: the outcome word (built, modeled, …) stays in the output.
        xml += "<system-out>" + common::escape_markup(r.outcome + ": " + r.detail) + "</system-out>";
      }
      xml += "</testcase>\n";
    }
    xml += "</testsuite>";
  }
  return xml + "</testsuites>\n";
}

JunitSuite junit_suite(std::vector<RunResult> results, const std::string& slurm_array) {
  return {slurm_array.empty() ? "faultline-reproducers" : "faultline-reproducers." + slurm_array,
          std::move(results)};
}

std::vector<datasets::CatalogEntry> catalog_of(const std::vector<Manifest>& manifests) {
  std::vector<datasets::CatalogEntry> catalog;
  for (const auto& m : manifests) catalog.push_back({m.id, m.title, m.symptom, m.root_cause, m.issues});
  return catalog;
}

std::vector<datasets::CatalogEntry> current_catalog() {
  return catalog_of(load_manifests(default_manifest_dir()));
}

void register_manifests(datasets::Database& db, const std::vector<Manifest>& manifests) {
  auto catalog = catalog_of(manifests);
  db.transaction([&] { datasets::replace_reproducer_catalog(db, catalog); });
}

}  // namespace faultline::reproducers
