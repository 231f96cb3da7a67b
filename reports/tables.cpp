#include "reports/tables.hpp"

#include <algorithm>
#include <map>

#include "common/counted.hpp"
#include "reports/architecture_table.hpp"
#include "reports/classifier_tables.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::reports {

namespace {

const taxonomy::Taxonomy& tax() { return taxonomy::Taxonomy::builtin(); }

std::map<std::string, int> count_by(const std::vector<Case>& cases, std::string Case::*field) {
  std::map<std::string, int> out;
  for (const auto& c : cases) ++out[c.*field];
  return out;
}

Value text(std::string s) { return Value::of_text(std::move(s)); }
Value count(long long n) { return Value::of_count(n); }
Value share(long long n, long long total) { return Value::of_share(n, total); }

// An id column programs read, beside the name column people read; aggregated rows leave the id empty.
Column id_column(const std::string& id) { return {id, "", ColumnType::text}; }

}  // namespace

Table funnel_table(const ReportData& data) {
  Table t;
  t.id = "table1_funnel";
  t.title = "Dataset by repository";
  t.columns = {id_column("repository_id"),
               {"repository", "Repository", ColumnType::text},
               {"raw", "Raw", ColumnType::count},
               {"candidate", "Candidate", ColumnType::count},
               {"sampled", "Sampled", ColumnType::count},
               {"final", "Final", ColumnType::count}};
  // Every repository the store holds has a row, so that the rows add up to the total: the study's order
  // first, then those with labeled cases, then those with none yet (sorted by name).
  std::map<std::string, funnel::FunnelRow> by_repo;
  for (const auto& r : data.funnel.rows) by_repo[r.repo] = r;
  auto order = repository_order(data.cases);
  for (const auto& [repo, row] : by_repo) {
    if (std::find(order.begin(), order.end(), repo) == order.end()) order.push_back(repo);
  }
  for (const auto& repo : order) {
    auto it = by_repo.find(repo);
    if (it == by_repo.end()) continue;
    t.rows.push_back({{text(repo), text(repository_name(repo)), count(it->second.raw),
                       count(it->second.candidates), count(it->second.sampled), count(it->second.labeled)}});
  }
  auto total = funnel::funnel_total(data.funnel.rows);
  t.rows.push_back({{text(""), text("Total"), count(total.raw), count(total.candidates), count(total.sampled),
                     count(total.labeled)},
                    RowKind::total});
  t.note = "Final = sampled issues with an audited manual label. " + funnel::funnel_note(data.funnel);
  return t;
}

Table symptom_table(const ReportData& data) {
  const long long n = static_cast<long long>(data.cases.size());
  auto repos = repository_order(data.cases);
  Table t;
  t.id = "table2_symptoms";
  t.title = "Symptoms by repository";
  t.columns = {id_column("symptom_id"),
               {"symptom", "Category", ColumnType::text},
               id_column("repository_id"),
               {"repository", "Repository", ColumnType::text},
               {"count", "No.", ColumnType::count},
               {"share", "Ratio", ColumnType::share}};
  t.spread = Spread{"repository_id", "repository", {"count", "share"}};
  std::map<std::string, std::map<std::string, int>> counts;  // symptom → repo → n
  for (const auto& c : data.cases) ++counts[c.symptom][c.repo];
  auto totals = count_by(data.cases, &Case::symptom);
  std::vector<std::string> order = tax().symptom_ids();
  std::stable_sort(order.begin(), order.end(),
                   [&](const auto& a, const auto& b) { return totals[a] > totals[b]; });
  // Per symptom its total over the repositories first (the study's column order), then each repository.
  for (const auto& s : order) {
    const std::string& name = tax().symptom(s).name;
    t.rows.push_back({{text(s), text(name), text(""), text("Total"), count(totals[s]), share(totals[s], n)},
                      RowKind::total});
    for (const auto& repo : repos) {
      t.rows.push_back({{text(s), text(name), text(repo), text(repository_name(repo)), count(counts[s][repo]),
                         share(counts[s][repo], n)}});
    }
  }
  auto per_repo = count_by(data.cases, &Case::repo);
  t.rows.push_back(
      {{text(""), text("Total"), text(""), text("Total"), count(n), share(n, n)}, RowKind::total});
  for (const auto& repo : repos) {
    t.rows.push_back({{text(""), text("Total"), text(repo), text(repository_name(repo)),
                       count(per_repo[repo]), share(per_repo[repo], n)},
                      RowKind::total});
  }
  t.note = "Ratios are shares of all " + std::to_string(n) + " labeled issues.";
  return t;
}

Table root_cause_table(const ReportData& data) {
  const long long n = static_cast<long long>(data.cases.size());
  Table t;
  t.id = "table3_root_causes";
  t.title = "Root causes by dimension";
  t.columns = {id_column("dimension_id"),           {"dimension", "Dimension", ColumnType::text},
               id_column("root_cause_id"),          {"root_cause", "Category", ColumnType::text},
               {"count", "No.", ColumnType::count}, {"share", "Ratio", ColumnType::share}};
  auto totals = count_by(data.cases, &Case::root_cause);
  for (const auto& d : tax().dimensions()) {
    long long subtotal = 0;
    for (const auto& id : d.root_causes) {
      t.rows.push_back({{text(d.id), text(d.name), text(id), text(tax().root_cause(id).name),
                         count(totals[id]), share(totals[id], n)}});
      subtotal += totals[id];
    }
    t.rows.push_back(
        {{text(d.id), text(d.name), text(""), text("Subtotal"), count(subtotal), share(subtotal, n)},
         RowKind::subtotal});
  }
  t.rows.push_back({{text(""), text("Total"), text(""), text(""), count(n), share(n, n)}, RowKind::total});
  return t;
}

namespace {

// Root causes down, one column per (id, name) across, counting cases whose `field` is that id; each root
// cause's total over the columns and each column's total over the root causes are total rows.
Table root_cause_crosstab(const ReportData& data, const std::string& id, const std::string& title,
                          const std::string& across, const std::string& across_heading,
                          const std::vector<std::pair<std::string, std::string>>& columns,
                          std::string Case::*field) {
  Table t;
  t.id = id;
  t.title = title;
  t.columns = {id_column("root_cause_id"),
               {"root_cause", "Root cause", ColumnType::text},
               id_column(across + "_id"),
               {across, across_heading, ColumnType::text},
               {"count", "No.", ColumnType::count}};
  t.spread = Spread{across + "_id", across, {"count"}};
  std::map<std::string, std::map<std::string, int>> counts;
  for (const auto& c : data.cases) ++counts[c.root_cause][c.*field];
  for (const auto& rc : tax().root_causes()) {
    int total = 0;
    for (const auto& [column, name] : columns) {
      t.rows.push_back(
          {{text(rc.id), text(rc.name), text(column), text(name), count(counts[rc.id][column])}});
      total += counts[rc.id][column];
    }
    t.rows.push_back({{text(rc.id), text(rc.name), text(""), text("Total"), count(total)}, RowKind::total});
  }
  auto by_column = count_by(data.cases, field);
  for (const auto& [column, name] : columns) {
    t.rows.push_back(
        {{text(""), text("Total"), text(column), text(name), count(by_column[column])}, RowKind::total});
  }
  t.rows.push_back(
      {{text(""), text("Total"), text(""), text("Total"), count(static_cast<long long>(data.cases.size()))},
       RowKind::total});
  return t;
}

}  // namespace

Table symptom_by_root_cause_table(const ReportData& data) {
  std::vector<std::pair<std::string, std::string>> symptoms;
  for (const auto& s : tax().symptoms()) symptoms.push_back({s.id, s.name});
  return root_cause_crosstab(data, "crosstab_symptom_root_cause", "Root cause × symptom", "symptom",
                             "Symptom", symptoms, &Case::symptom);
}

Table root_cause_by_repository_table(const ReportData& data) {
  std::vector<std::pair<std::string, std::string>> repos;
  for (const auto& repo : repository_order(data.cases)) repos.push_back({repo, repository_name(repo)});
  return root_cause_crosstab(data, "crosstab_root_cause_repository", "Root cause × repository", "repository",
                             "Repository", repos, &Case::repo);
}

Table study_comparison_table(const ReportData& data) {
  const long long n = static_cast<long long>(data.cases.size());
  const long long study_n = tax().study().total;
  Table t;
  t.id = "study_comparison";
  t.title = "Share of each category here and in the study";
  t.columns = {id_column("axis_id"),
               {"axis", "Axis", ColumnType::text},
               id_column("category_id"),
               {"category", "Category", ColumnType::text},
               {"count", "No.", ColumnType::count},
               {"share", "Share", ColumnType::share},
               {"study_count", "Study No.", ColumnType::count},
               {"study_share", "Study share", ColumnType::share}};
  auto symptoms = count_by(data.cases, &Case::symptom);
  for (const auto& s : tax().symptoms()) {
    t.rows.push_back({{text("symptom"), text("Symptom"), text(s.id), text(s.name), count(symptoms[s.id]),
                       share(symptoms[s.id], n), count(s.study_count), share(s.study_count, study_n)}});
  }
  auto causes = count_by(data.cases, &Case::root_cause);
  for (const auto& rc : tax().root_causes()) {
    t.rows.push_back(
        {{text("root_cause"), text("Root cause"), text(rc.id), text(rc.name), count(causes[rc.id]),
          share(causes[rc.id], n), count(rc.study_count), share(rc.study_count, study_n)}});
  }
  t.note = "Study: " + tax().study().reference + ", " + std::to_string(study_n) + " issues.";
  return t;
}

Table reproducer_coverage_table(const ReportData& data) {
  Table t;
  t.id = "reproducer_coverage";
  t.title = "Reproducers behind each root cause";
  t.columns = {id_column("root_cause_id"),
               {"root_cause", "Root cause", ColumnType::text},
               {"cases", "Cases", ColumnType::count},
               {"modeled_on_case", "Modeled on the case", ColumnType::count},
               {"related_only", "Related only", ColumnType::count},
               {"reproducers", "Reproducers", ColumnType::count},
               {"reproducer_ids", "Reproducer ids", ColumnType::text},
               {"fixed_passing", "Fixed passing", ColumnType::count}};
  t.note =
      "Modeled on the case: cases with a reproducer built from that very issue. Related only: cases whose "
      "only reproducer shares their root cause but was not modeled on them. Fixed passing: fixed "
      "variants whose latest suite result (one that ran over a skip; gpu over host over build) is pass, "
      "not built or modeled, and whose latest result in no mode is a failure (fail, or lost with its "
      "Slurm shard).";
  if (data.links_to_unknown_reproducers > 0)
    t.note += " Not counted: " + common::counted(data.links_to_unknown_reproducers, "link") +
              " of these cases to a reproducer that is not among the manifests.";
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
    t.rows.push_back({{text(rc.id), text(rc.name), count(cases[rc.id]), count(modeled[rc.id]),
                       count(related[rc.id]), count(n), text(names), count(passing)}});
    total_cases += cases[rc.id];
    total_modeled += modeled[rc.id];
    total_related += related[rc.id];
    total_repros += n;
    total_passing += passing;
  }
  t.rows.push_back({{text(""), text("Total"), count(total_cases), count(total_modeled), count(total_related),
                     count(total_repros), text(""), count(total_passing)},
                    RowKind::total});
  return t;
}

std::vector<Table> prediction_tables(const ReportData& data) {
  if (data.predicted_cases.empty()) return {};
  ReportData predicted = data;
  predicted.cases = data.predicted_cases;
  const std::string n = std::to_string(data.predicted_cases.size());
  const std::string what = " — classifier predictions for " + n + " screened-in candidate" +
                           (n == "1" ? "" : "s") + " without a final label";
  Table symptoms = symptom_table(predicted);
  symptoms.id += "_predicted";
  symptoms.title = "Predicted symptoms by repository" + what;
  symptoms.note = "Ratios are shares of the " + n + " predicted issues; none of them is a manual label.";
  if (data.not_predicted.total() > 0)
    symptoms.note.append(" ").append(candidates_not_predicted_note(data.not_predicted));
  Table causes = root_cause_table(predicted);
  causes.id += "_predicted";
  causes.title = "Predicted root causes by dimension" + what;
  causes.note = symptoms.note;
  return {symptoms, causes};
}

const std::vector<std::string>& optional_table_ids() {
  static const std::vector<std::string> ids = {"table_reproducer_by_architecture",
                                               "table2_symptoms_predicted", "table3_root_causes_predicted",
                                               "classifier_evaluation", "classifier_thresholds"};
  return ids;
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
  if (data.evaluation) {
    for (auto& t : classifier_tables(*data.evaluation, data.audit_kappa, data.evaluation_origin))
      tables.push_back(std::move(t));
  }
  return tables;
}

}  // namespace faultline::reports
