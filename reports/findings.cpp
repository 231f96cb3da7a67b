#include "reports/findings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "common/largest_entry.hpp"
#include "reports/tables.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::reports {

namespace {

const taxonomy::Taxonomy& tax() { return taxonomy::Taxonomy::builtin(); }

// The cases counted once per symptom, root cause, dimension and repository.
struct Counts {
  long long n = 0;
  std::map<std::string, int> symptoms, causes, dimensions, repos;
};

Counts count_cases(const std::vector<Case>& cases) {
  Counts c;
  c.n = static_cast<long long>(cases.size());
  for (const auto& x : cases) {
    ++c.symptoms[x.symptom];
    ++c.causes[x.root_cause];
    ++c.dimensions[tax().root_cause(x.root_cause).dimension];
    ++c.repos[x.repo];
  }
  return c;
}

std::string before_device_finding(Counts& c) {
  int deploy = c.symptoms["deployment_failure"], build = c.symptoms["build_failure"];
  int before_device = deploy + build;
  // The figure itself leads; "more than half" only where it is true.
  return std::to_string(before_device) + " of " + std::to_string(c.n) + " issues (" +
         percent(before_device, c.n) + (2 * before_device > c.n ? ", more than half" : "") +
         ") fail before any kernel runs on the device: deployment failures (" + std::to_string(deploy) +
         "; " + percent(deploy, c.n) + ") and build failures (" + std::to_string(build) + "; " +
         percent(build, c.n) + ").";
}

// "A", "A and B", "A, B and C".
std::string joined_names(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

// The categories of `counts` tied for the most issues, by name, and how many each has.
struct Largest {
  std::string names;  // "A", "A and B"
  int count = 0;
  bool tied = false;
};
Largest largest_of(const std::map<std::string, int>& counts,
                   const std::function<std::string(const std::string&)>& name) {
  std::vector<std::string> names;
  for (const auto& id : common::keys_of_largest(counts)) names.push_back(name(id));
  return {joined_names(names), common::largest_entry(counts).second, names.size() > 1};
}

// "largest root cause is X (n; p%)" or "largest root causes are X and Y (n each; p%)", for `what` "root
// cause".
std::string largest_categories(const std::map<std::string, int>& counts, long long n, const std::string& what,
                               const std::function<std::string(const std::string&)>& name) {
  const Largest l = largest_of(counts, name);
  return "largest " + what + (l.tied ? "s are " : " is ") + l.names + " (" + std::to_string(l.count) +
         (l.tied ? " each" : "") + "; " + percent(l.count, n) + ")";
}

std::string top_symptom_finding(const Counts& c) {
  const Largest l = largest_of(c.symptoms, [](const std::string& id) { return tax().symptom(id).name; });
  return "The most frequent symptom" + std::string(l.tied ? "s are " : " is ") + l.names + " with " +
         std::to_string(l.count) + " issues" + (l.tied ? " each" : "") + " (" + percent(l.count, c.n) + ").";
}

std::string top_root_cause_finding(const Counts& c) {
  auto dimension_name = [](const std::string& id) {
    for (const auto& d : tax().dimensions()) {
      if (d.id == id) return d.name;
    }
    return id;
  };
  return "The " +
         largest_categories(c.causes, c.n, "root cause",
                            [](const std::string& id) { return tax().root_cause(id).name; }) +
         "; the " + largest_categories(c.dimensions, c.n, "dimension", dimension_name) + ".";
}

std::string outside_kernel_finding(Counts& c) {
  long long outside = c.n - c.dimensions["kernel_library"];
  return "Root causes outside the kernel code itself — compilers, build systems and the runtime environment "
         "— "
         "account for " +
         std::to_string(outside) + " issues (" + percent(outside, c.n) + ").";
}

// Repositories tied for the most issues are named together, without a symptom: whose would it be?
std::string top_repository_finding(const ReportData& data, const Counts& c) {
  const Largest repos = largest_of(c.repos, [](const std::string& repo) { return repository_name(repo); });
  const std::string share =
      std::to_string(repos.count) + (repos.tied ? " each" : "") + "; " + percent(repos.count, c.n);
  if (repos.tied) return repos.names + " contribute the most issues (" + share + ").";
  const std::string top_repo = common::largest_entry(c.repos).first;
  std::map<std::string, int> repo_symptoms;
  for (const auto& x : data.cases) {
    if (x.repo == top_repo) ++repo_symptoms[x.symptom];
  }
  const Largest symptoms =
      largest_of(repo_symptoms, [](const std::string& id) { return tax().symptom(id).name; });
  return repos.names + " contributes the most issues (" + share + "), " +
         (2 * symptoms.count > repos.count ? "most of them " : "most often ") + symptoms.names + " (" +
         std::to_string(symptoms.count) + (symptoms.tied ? " each" : "") + " of " +
         std::to_string(repos.count) + ").";
}

// The category whose share differs most from the study's published share.
std::string study_departure_finding(Counts& c) {
  std::string name;
  double drift = -1, ours = 0, theirs = 0;
  auto consider = [&](const taxonomy::Category& category, int count) {
    double share = 100.0 * count / c.n, study = 100.0 * category.study_count / tax().study().total;
    if (std::fabs(share - study) > drift)
      drift = std::fabs(share - study), name = category.name, ours = share, theirs = study;
  };
  for (const auto& s : tax().symptoms()) consider(s, c.symptoms[s.id]);
  for (const auto& rc : tax().root_causes()) consider(rc, c.causes[rc.id]);
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, "%.2f%% here against %.2f%% in the study", ours, theirs);
  return "The largest departure from the study's shares is " + name + ": " + buffer + ".";
}

std::string provenance_finding(const ReportData& data) {
  std::string text =
      "All " + std::to_string(data.cases.size()) + " labels counted here are final manual labels";
  if (data.audit_kappa) {
    char buffer[200];
    std::snprintf(buffer, sizeof buffer, " (audited: %s %.2f over %d issues; the study reports %.2f)",
                  audit_statistic(data.audit_raters).c_str(), *data.audit_kappa, data.audit_n.value_or(0),
                  tax().study().kappa);
    text += buffer;
  }
  if (!data.predicted_cases.empty()) {
    const bool one = data.predicted_cases.size() == 1;
    text += "; " + std::to_string(data.predicted_cases.size()) +
            (one ? " candidate without a final label carries" : " candidates without a final label carry") +
            " only a classifier prediction, counted in the prediction tables alone";
  }
  return text + ".";
}

// None when the catalog has no reproducer.
std::optional<std::string> reproducer_finding(const ReportData& data) {
  if (data.reproducers.empty()) return std::nullopt;
  // Cases that only share a root cause with a reproducer are not counted: while every root cause has one,
  // that number is just the rest of the cases.
  return std::to_string(cases_with_source_reproducer(data.cases)) + " of " +
         std::to_string(data.cases.size()) + " cases have a reproducer modeled on them; for " +
         std::to_string(reproduced_root_causes(data).size()) + " of " +
         std::to_string(tax().root_causes().size()) +
         " root causes a reproducer reproduced its bug in the latest suite run.";
}

}  // namespace

std::vector<std::string> compute_findings(const ReportData& data) {
  if (data.cases.empty())
    return {"No labeled issues yet: import raters' labels and audit them to get findings."};
  Counts counts = count_cases(data.cases);
  std::vector<std::string> out{
      before_device_finding(counts),  top_symptom_finding(counts),          top_root_cause_finding(counts),
      outside_kernel_finding(counts), top_repository_finding(data, counts), study_departure_finding(counts),
      provenance_finding(data)};
  if (auto reproducers = reproducer_finding(data)) out.push_back(*reproducers);
  return out;
}

}  // namespace faultline::reports
