#include "reports/tables.hpp"

#include <algorithm>
#include <map>

#include "reports/architecture_table.hpp"

#include "taxonomy/taxonomy.hpp"

namespace faultline::reports {

std::string percent(long long count, long long total) {
  if (total <= 0) return "0.00%";
  // hundredths of a percent, rounded half away from zero: floor((2·c·10000 + t) / (2t)) for c ≥ 0.
  long long magnitude = (2 * std::llabs(count) * 10000 + total) / (2 * total);
  std::string digits = std::to_string(magnitude / 100) + "." + (magnitude % 100 < 10 ? "0" : "") +
                       std::to_string(magnitude % 100);
  return (count < 0 ? "-" : "") + digits + "%";
}

namespace {

const taxonomy::Taxonomy& tax() { return taxonomy::Taxonomy::builtin(); }

std::map<std::string, int> count_by(const std::vector<Case>& cases, std::string Case::*field) {
  std::map<std::string, int> out;
  for (const auto& c : cases) ++out[c.*field];
  return out;
}

}  // namespace

Table funnel_table(const ReportData& data) {
  Table t{"table1_funnel",
          "Dataset by repository (Table I)",
          {"Repository", "Raw", "Candidate", "Sampled", "Final"},
          {},
          {},
          ""};
  std::map<std::string, funnel::FunnelRow> by_repo;
  for (const auto& r : data.funnel.rows) by_repo[r.repo] = r;
  for (const auto& repo : repository_order(data.cases)) {
    auto it = by_repo.find(repo);
    if (it == by_repo.end()) continue;
    t.rows.push_back({repository_name(repo), std::to_string(it->second.raw),
                      std::to_string(it->second.candidates), std::to_string(it->second.sampled),
                      std::to_string(it->second.labeled)});
    t.total_rows.push_back(false);
  }
  auto total = funnel::funnel_total(data.funnel.rows);
  t.rows.push_back({"Total", std::to_string(total.raw), std::to_string(total.candidates),
                    std::to_string(total.sampled), std::to_string(total.labeled)});
  t.total_rows.push_back(true);
  t.note = "Final = sampled issues with an audited manual label. " + funnel::funnel_note(data.funnel);
  return t;
}

Table symptom_table(const ReportData& data) {
  const long long n = static_cast<long long>(data.cases.size());
  auto repos = repository_order(data.cases);
  Table t{"table2_symptoms",
          "Symptoms by repository (Table II)",
          {"Category", "Total No.", "Total Ratio"},
          {},
          {},
          ""};
  for (const auto& repo : repos) {
    t.header.push_back(repository_name(repo) + " No.");
    t.header.push_back(repository_name(repo) + " Ratio");
  }
  std::map<std::string, std::map<std::string, int>> counts;  // symptom → repo → n
  for (const auto& c : data.cases) ++counts[c.symptom][c.repo];
  auto totals = count_by(data.cases, &Case::symptom);
  std::vector<std::string> order = tax().symptom_ids();
  std::stable_sort(order.begin(), order.end(),
                   [&](const auto& a, const auto& b) { return totals[a] > totals[b]; });
  for (const auto& s : order) {
    std::vector<std::string> row{tax().symptom(s).name, std::to_string(totals[s]), percent(totals[s], n)};
    for (const auto& repo : repos) {
      row.push_back(std::to_string(counts[s][repo]));
      row.push_back(percent(counts[s][repo], n));
    }
    t.rows.push_back(row);
    t.total_rows.push_back(false);
  }
  std::vector<std::string> total{"Total", std::to_string(n), percent(n, n)};
  auto per_repo = count_by(data.cases, &Case::repo);
  for (const auto& repo : repos) {
    total.push_back(std::to_string(per_repo[repo]));
    total.push_back(percent(per_repo[repo], n));
  }
  t.rows.push_back(total);
  t.total_rows.push_back(true);
  t.note = "Ratios are shares of all " + std::to_string(n) + " labeled issues.";
  return t;
}

Table root_cause_table(const ReportData& data) {
  const long long n = static_cast<long long>(data.cases.size());
  Table t{"table3_root_causes",
          "Root causes by dimension (Table III)",
          {"Dimension", "Category", "No.", "Ratio"},
          {},
          {},
          ""};
  auto totals = count_by(data.cases, &Case::root_cause);
  for (const auto& d : tax().dimensions()) {
    long long subtotal = 0;
    for (const auto& id : d.root_causes) {
      t.rows.push_back(
          {d.name, tax().root_cause(id).name, std::to_string(totals[id]), percent(totals[id], n)});
      t.total_rows.push_back(false);
      subtotal += totals[id];
    }
    t.rows.push_back({d.name, "Subtotal", std::to_string(subtotal), percent(subtotal, n)});
    t.total_rows.push_back(true);
  }
  t.rows.push_back({"Total", "", std::to_string(n), percent(n, n)});
  t.total_rows.push_back(true);
  return t;
}

namespace {

// Root causes down, one column per (id, heading) across, counting cases whose `field` is that id, a
// Total column and a Total row.
Table root_cause_crosstab(const ReportData& data, const std::string& id, const std::string& title,
                          const std::vector<std::pair<std::string, std::string>>& columns,
                          std::string Case::*field) {
  Table t{id, title, {"Root cause"}, {}, {}, ""};
  for (const auto& [column, heading] : columns) t.header.push_back(heading);
  t.header.push_back("Total");
  std::map<std::string, std::map<std::string, int>> counts;
  for (const auto& c : data.cases) ++counts[c.root_cause][c.*field];
  for (const auto& rc : tax().root_causes()) {
    std::vector<std::string> row{rc.name};
    int total = 0;
    for (const auto& [column, heading] : columns) {
      row.push_back(std::to_string(counts[rc.id][column]));
      total += counts[rc.id][column];
    }
    row.push_back(std::to_string(total));
    t.rows.push_back(row);
    t.total_rows.push_back(false);
  }
  std::vector<std::string> total{"Total"};
  auto by_column = count_by(data.cases, field);
  for (const auto& [column, heading] : columns) total.push_back(std::to_string(by_column[column]));
  total.push_back(std::to_string(data.cases.size()));
  t.rows.push_back(total);
  t.total_rows.push_back(true);
  return t;
}

}  // namespace

Table symptom_by_root_cause_table(const ReportData& data) {
  std::vector<std::pair<std::string, std::string>> symptoms;
  for (const auto& s : tax().symptoms()) symptoms.push_back({s.id, s.name});
  return root_cause_crosstab(data, "crosstab_symptom_root_cause", "Root cause × symptom", symptoms,
                             &Case::symptom);
}

Table root_cause_by_repository_table(const ReportData& data) {
  std::vector<std::pair<std::string, std::string>> repos;
  for (const auto& repo : repository_order(data.cases)) repos.push_back({repo, repository_name(repo)});
  return root_cause_crosstab(data, "crosstab_root_cause_repository", "Root cause × repository", repos,
                             &Case::repo);
}

Table study_comparison_table(const ReportData& data) {
  const long long n = static_cast<long long>(data.cases.size());
  const long long study_n = tax().study().total;
  Table t{"study_comparison",
          "Share of each category here and in the study",
          {"Axis", "Category", "No.", "Share", "Study No.", "Study share"},
          {},
          {},
          ""};
  auto symptoms = count_by(data.cases, &Case::symptom);
  for (const auto& s : tax().symptoms()) {
    t.rows.push_back({"symptom", s.name, std::to_string(symptoms[s.id]), percent(symptoms[s.id], n),
                      std::to_string(s.study_count), percent(s.study_count, study_n)});
    t.total_rows.push_back(false);
  }
  auto causes = count_by(data.cases, &Case::root_cause);
  for (const auto& rc : tax().root_causes()) {
    t.rows.push_back({"root cause", rc.name, std::to_string(causes[rc.id]), percent(causes[rc.id], n),
                      std::to_string(rc.study_count), percent(rc.study_count, study_n)});
    t.total_rows.push_back(false);
  }
  t.note = "Study: " + tax().study().reference + ", " + std::to_string(study_n) + " issues.";
  return t;
}

Table reproducer_coverage_table(const ReportData& data) {
  Table t{"reproducer_coverage",
          "Reproducers behind each root cause",
          {"Root cause", "Cases", "Modeled on the case", "Related only", "Reproducers", "Fixed passing"},
          {},
          {},
          "Modeled on the case: cases with a reproducer built from that very issue. Related only: cases whose "
          "only reproducer shares their root cause but was not modeled on them. Fixed passing: fixed "
          "variants whose latest suite result (one that ran over a skip; gpu over host over build) is pass, "
          "not built or modeled."};
  std::map<std::string, std::vector<std::string>> ids;
  for (const auto& [id, status] : data.reproducers) {
    if (!status.root_cause.empty()) ids[status.root_cause].push_back(id);
  }
  std::map<std::string, int> cases, modeled, related;
  for (const auto& c : data.cases) {
    ++cases[c.root_cause];
    if (c.reproducers.empty()) continue;
    ++(c.reproducers.front().how == "source" ? modeled : related)[c.root_cause];
  }
  int total_cases = 0, total_modeled = 0, total_related = 0, total_repros = 0, total_passing = 0;
  for (const auto& rc : tax().root_causes()) {
    std::string names;
    int passing = 0;
    for (const auto& id : ids[rc.id]) {
      names += (names.empty() ? "" : ", ") + id;
      passing += data.reproducers.at(id).fixed == "pass";
    }
    int n = static_cast<int>(ids[rc.id].size());
    t.rows.push_back({rc.name, std::to_string(cases[rc.id]), std::to_string(modeled[rc.id]),
                      std::to_string(related[rc.id]), names.empty() ? "none" : names,
                      std::to_string(passing) + "/" + std::to_string(n)});
    t.total_rows.push_back(false);
    total_cases += cases[rc.id];
    total_modeled += modeled[rc.id];
    total_related += related[rc.id];
    total_repros += n;
    total_passing += passing;
  }
  t.rows.push_back({"Total", std::to_string(total_cases), std::to_string(total_modeled),
                    std::to_string(total_related), std::to_string(total_repros) + " reproducers",
                    std::to_string(total_passing) + "/" + std::to_string(total_repros)});
  t.total_rows.push_back(true);
  return t;
}

std::vector<Table> prediction_tables(const ReportData& data) {
  if (data.predicted_cases.empty()) return {};
  ReportData predicted = data;
  predicted.cases = data.predicted_cases;
  const std::string n = std::to_string(data.predicted_cases.size());
  const std::string what =
      " — classifier predictions for " + n + " screened-in candidates without a manual label";
  Table symptoms = symptom_table(predicted);
  symptoms.id += "_predicted";
  symptoms.title = "Predicted symptoms by repository" + what;
  symptoms.note = "Ratios are shares of the " + n + " predicted issues; none of them is a manual label.";
  Table causes = root_cause_table(predicted);
  causes.id += "_predicted";
  causes.title = "Predicted root causes by dimension" + what;
  causes.note = symptoms.note;
  return {symptoms, causes};
}

std::vector<Table> all_tables(const ReportData& data) {
  std::vector<Table> tables{funnel_table(data),
                            symptom_table(data),
                            root_cause_table(data),
                            symptom_by_root_cause_table(data),
                            root_cause_by_repository_table(data),
                            study_comparison_table(data),
                            reproducer_coverage_table(data)};
  if (auto t = architecture_table(data)) tables.push_back(std::move(*t));
  for (auto& t : prediction_tables(data)) tables.push_back(std::move(t));
  return tables;
}

}  // namespace faultline::reports
