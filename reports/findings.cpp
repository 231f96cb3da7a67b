#include "reports/findings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "common/largest_entry.hpp"
#include "reports/tables.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::reports {

std::vector<std::string> compute_findings(const ReportData& data) {
  const auto& tax = taxonomy::Taxonomy::builtin();
  const long long n = static_cast<long long>(data.cases.size());
  std::vector<std::string> out;
  if (n == 0)
    return {"No labeled issues yet: import and audit labels, or train and classify, to get findings."};

  std::map<std::string, int> symptoms, causes, dimensions, repos;
  int manual = 0;
  for (const auto& c : data.cases) {
    ++symptoms[c.symptom];
    ++causes[c.root_cause];
    ++dimensions[tax.root_cause(c.root_cause).dimension];
    ++repos[c.repo];
    if (c.provenance != "predicted") ++manual;
  }

  int before_device = symptoms["deployment_failure"] + symptoms["build_failure"];
  out.push_back(std::string(2 * before_device > n ? "More than half" : "Less than half") +
                " of the issues fail before any kernel runs on the device: deployment failures (" +
                std::to_string(symptoms["deployment_failure"]) + "; " +
                percent(symptoms["deployment_failure"], n) + ") and build failures (" +
                std::to_string(symptoms["build_failure"]) + "; " + percent(symptoms["build_failure"], n) +
                ") together make " + std::to_string(before_device) + " of " + std::to_string(n) + " (" +
                percent(before_device, n) + ").");

  auto [top_symptom, top_symptom_n] = common::largest_entry(symptoms);
  out.push_back("The most frequent symptom is " + tax.symptom(top_symptom).name + " with " +
                std::to_string(top_symptom_n) + " issues (" + percent(top_symptom_n, n) + ").");

  auto [top_cause, top_cause_n] = common::largest_entry(causes);
  auto [top_dim, top_dim_n] = common::largest_entry(dimensions);
  std::string dim_name;
  for (const auto& d : tax.dimensions()) {
    if (d.id == top_dim) dim_name = d.name;
  }
  out.push_back("The largest root cause is " + tax.root_cause(top_cause).name + " (" +
                std::to_string(top_cause_n) + "; " + percent(top_cause_n, n) +
                "); the largest dimension is " + dim_name + " (" + std::to_string(top_dim_n) + "; " +
                percent(top_dim_n, n) + ").");

  int outside_library = n - dimensions["kernel_library"];
  out.push_back(
      "Root causes outside the kernel code itself — compilers, build systems and the runtime environment — "
      "account for " +
      std::to_string(outside_library) + " issues (" + percent(outside_library, n) + ").");

  auto [top_repo, top_repo_n] = common::largest_entry(repos);
  std::map<std::string, int> repo_symptoms;
  for (const auto& c : data.cases) {
    if (c.repo == top_repo) ++repo_symptoms[c.symptom];
  }
  auto [repo_symptom, repo_symptom_n] = common::largest_entry(repo_symptoms);
  out.push_back(repository_name(top_repo) + " contributes the most issues (" + std::to_string(top_repo_n) +
                "; " + percent(top_repo_n, n) + "), most of them " + tax.symptom(repo_symptom).name + " (" +
                std::to_string(repo_symptom_n) + " of " + std::to_string(top_repo_n) + ").");

  // The category whose share differs most from the study's published share.
  std::string drift_name;
  double drift = -1, ours = 0, theirs = 0;
  auto consider = [&](const taxonomy::Category& c, int count) {
    double share = 100.0 * count / n, study = 100.0 * c.study_count / tax.study().total;
    if (std::fabs(share - study) > drift)
      drift = std::fabs(share - study), drift_name = c.name, ours = share, theirs = study;
  };
  for (const auto& s : tax.symptoms()) consider(s, symptoms[s.id]);
  for (const auto& rc : tax.root_causes()) consider(rc, causes[rc.id]);
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, "%.2f%% here against %.2f%% in the study", ours, theirs);
  out.push_back("The largest departure from the study's shares is " + drift_name + ": " + buffer + ".");

  std::string provenance = std::to_string(manual) + " of " + std::to_string(n) + " labels are manual";
  if (data.audit_kappa) {
    std::snprintf(buffer, sizeof buffer,
                  " (audited: Cohen's kappa %.2f over %d issues; the study reports %.2f)", *data.audit_kappa,
                  data.audit_n.value_or(0), tax.study().kappa);
    provenance += buffer;
  }
  out.push_back(provenance + "; " + std::to_string(n - manual) +
                " are classifier predictions above the abstention threshold.");

  std::set<std::string> covered;
  for (const auto& [id, status] : data.reproducers) {
    if (!status.root_cause.empty()) covered.insert(status.root_cause);
  }
  if (!covered.empty()) {
    int modeled = 0, related = 0;
    for (const auto& c : data.cases) {
      modeled += !c.reproducers.empty() && c.reproducers.front().how == "source";
      related += !c.reproducers.empty() && c.reproducers.front().how == "related";
    }
    out.push_back(std::to_string(modeled) + " of " + std::to_string(n) +
                  " cases have a reproducer modeled on them; " + std::to_string(related) +
                  " more only share their root cause with a reproducer (a related reproducer, which does not "
                  "reproduce the case); the reproducers cover " + std::to_string(covered.size()) + " of " +
                  std::to_string(tax.root_causes().size()) + " root causes.");
  }
  return out;
}

}  // namespace faultline::reports
