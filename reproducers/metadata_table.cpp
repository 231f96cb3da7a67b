#include "reproducers/metadata_table.hpp"

#include <map>
#include <sstream>

#include "common/csv.hpp"
#include "common/markup_escape.hpp"

namespace faultline::reproducers {

namespace {

const std::vector<std::string> kHeader{"id",  "symptom", "root cause",  "source",
                                       "fix", "checks",  "last outcome"};

std::string variant_check(const std::string& mode, const Expectation& x) {
  std::string check;
  if (mode == "build") {
    if (x.expect == "fails") {
      check = "fails to build with /" + x.message.text + "/";
    } else if (!x.artifact.empty()) {
      // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict on the chained form.
      check = "compiles; its PTX";
      if (!x.artifact_matches.empty()) check.append(" has /").append(x.artifact_matches.text).append("/");
      if (!x.artifact_lacks.empty()) {
        check.append(x.artifact_matches.empty() ? " has no /" : " and no /")
            .append(x.artifact_lacks.text)
            .append("/");
      }
    } else {
      check = "compiles";
    }
  } else {
    check = x.expect == "symptom" ? "shows the symptom" : "behaves correctly";
  }
  return check;
}

// "buggy fails to build with /…/", or "buggy: modeled (why)" where the run checks only the mechanism:
// a modeled run never shows the symptom, so the table must not say it does.
std::string variant_entry(const std::string& mode, const std::string& variant, const Expectation& x) {
  std::string entry = variant;
  if (x.modeled.empty()) return entry.append(" ").append(variant_check(mode, x));
  return entry.append(": modeled (").append(x.modeled).append(")");
}

std::string mode_checks(const Manifest& m) {
  std::string out;
  for (const char* mode : {"build", "host", "gpu"}) {
    auto it = m.modes.find(mode);
    if (it == m.modes.end()) continue;
    std::string variants;
    for (const auto& [variant, x] : it->second)
      variants += (variants.empty() ? "" : ", ") + variant_entry(mode, variant, x);
    out += (out.empty() ? "" : "; ") + std::string(mode) + ": " + variants;
  }
  return out;
}

std::string last_outcomes(const Manifest& m, const std::vector<datasets::SuiteResult>& latest) {
  std::map<std::string, std::map<std::string, std::string>> by_mode;
  for (const auto& r : latest) {
    if (r.repro_id == m.id) by_mode[r.mode][r.variant] = r.outcome;
  }
  std::string out;
  for (const char* mode : {"build", "host", "gpu"}) {
    auto it = by_mode.find(mode);
    if (it == by_mode.end()) continue;
    auto word = [&](const char* v) { return it->second.count(v) ? it->second.at(v) : std::string("-"); };
    out += (out.empty() ? "" : "; ") + std::string(mode) + ": " + word("buggy") + "/" + word("fixed");
  }
  return out.empty() ? "not run" : out;
}

std::vector<std::string> fields(const MetadataRow& r) {
  return {r.id, r.symptom, r.root_cause, r.source, r.fix, r.checks, r.last_outcome};
}

}  // namespace

std::vector<MetadataRow> metadata_rows(const std::vector<Manifest>& manifests,
                                       const std::vector<datasets::SuiteResult>& latest) {
  std::vector<MetadataRow> rows;
  for (const auto& m : manifests) {
    std::string source;
    for (const auto& url : m.issues) source += (source.empty() ? "" : " ") + url;
    if (source.empty()) source = m.no_single_issue;
    rows.push_back({m.id, m.symptom, m.root_cause, source, m.fix.empty() ? "unknown" : m.fix, mode_checks(m),
                    last_outcomes(m, latest)});
  }
  return rows;
}

std::string metadata_markdown(const std::vector<MetadataRow>& rows) {
  // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict on `" " + cell + " |"`.
  std::string out = "|";
  for (const auto& h : kHeader) out.append(" ").append(h).append(" |");
  out += "\n|";
  for (size_t i = 0; i < kHeader.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : rows) {
    out += "|";
    for (const auto& f : fields(r)) out.append(" ").append(common::markdown_escape(f)).append(" |");
    out += "\n";
  }
  return out;
}

std::string metadata_csv(const std::vector<MetadataRow>& rows) {
  std::ostringstream out;
  common::write_csv_row(out, kHeader);
  for (const auto& r : rows) common::write_csv_row(out, fields(r));
  return out.str();
}

nlohmann::json metadata_json(const std::vector<MetadataRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    out.push_back({{"id", r.id},
                   {"symptom", r.symptom},
                   {"root_cause", r.root_cause},
                   {"source", r.source},
                   {"fix", r.fix},
                   {"checks", r.checks},
                   {"last_outcome", r.last_outcome}});
  }
  return out;
}

}  // namespace faultline::reproducers
