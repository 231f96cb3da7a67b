#include "reports/report_data.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "classifier/annotation/label_audit.hpp"
#include "common/error.hpp"
#include "common/issue_url.hpp"
#include "common/repository_name.hpp"
#include "common/strict_json.hpp"
#include "common/text_file.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"
#include "datasets/store/suite_store.hpp"
#include "reports/classifier_tables.hpp"
#include "reproducers/runner.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::reports {

namespace {

// Which result stands for a variant: one that ran beats a skip; then gpu over host over build. A fixed
// variant's failure (fail, or lost with its Slurm shard) stands over any pass, gpu's first: a fix that
// fails where it last ran is no fix, and a pass on a GPU weeks ago says nothing of a failure on the host
// today.
int result_rank(const datasets::SuiteResult& r) {
  if (r.outcome == "skipped") return 0;
  const int mode = r.mode == "gpu" ? 3 : r.mode == "host" ? 2 : 1;
  return r.variant == "fixed" && reproducers::is_failure(r.outcome) ? 3 + mode : mode;
}

}  // namespace

bool names_issue(const std::string& url, const std::string& repo, int64_t number) {
  const auto page = common::read_issue_link(url);
  return page && !page->pull_request && page->number == std::to_string(number) &&
         common::same_repository_name(page->repo, repo);
}

std::vector<std::string> links_to_unknown_reproducers(const std::vector<std::string>& links,
                                                      const std::vector<datasets::CatalogEntry>& catalog) {
  std::vector<std::string> out;
  for (const auto& id : links) {
    if (std::none_of(catalog.begin(), catalog.end(), [&](const auto& e) { return e.id == id; }))
      out.push_back(id);
  }
  return out;
}

std::vector<CaseReproducer> case_reproducers(const Case& c, const std::vector<std::string>& manual_links,
                                             const std::vector<datasets::CatalogEntry>& catalog) {
  std::set<std::string> modeled;
  for (const auto& e : catalog) {
    // A link counts only to a reproducer the catalog holds (one linked from another manifest folder, or
    // since removed, has no row, page or result here: links_to_unknown_reproducers).
    if (std::find(manual_links.begin(), manual_links.end(), e.id) != manual_links.end()) modeled.insert(e.id);
    for (const auto& url : e.source_issues) {
      if (names_issue(url, c.repo, c.number)) modeled.insert(e.id);
    }
  }
  std::vector<CaseReproducer> out;
  for (const auto& id : modeled) out.push_back({id, "source"});
  if (!out.empty()) return out;
  const datasets::CatalogEntry* best = nullptr;
  for (const auto& e : catalog) {
    if (e.root_cause != c.root_cause) continue;
    if (!best || (e.symptom == c.symptom && best->symptom != c.symptom)) best = &e;
  }
  if (best) out.push_back({best->id, "related"});
  return out;
}

std::string candidates_not_predicted_note(const CandidatesNotPredicted& n) {
  if (n.total() == 0) return "";
  return "Screened-in candidates without a final label and without a predicted case: " +
         std::to_string(n.total()) + " (" + std::to_string(n.abstained) + " the model abstains on; " +
         std::to_string(n.predicted_out_of_scope) + " it predicts out of scope; " +
         std::to_string(n.unclassified) + " with no prediction, stored or changed since the last classify).";
}

std::string issue_link_host(const std::string& api_url) {
  const std::string scheme = "https://";
  if (api_url.rfind(scheme, 0) != 0) return "https://github.com/";
  std::string host = api_url.substr(scheme.size(), api_url.find('/', scheme.size()) - scheme.size());
  if (host.empty() || host == "api.github.com") return "https://github.com/";
  return scheme + host + "/";
}

namespace {

// load_report_data's reads, which must see one state of the store (the funnel, the cases and the suite
// results of one moment).
ReportData report_data_of(datasets::Database& db, const ReportOptions& options) {
  ReportData data;
  data.issue_link_host = options.issue_link_host;
  data.funnel = funnel::compute_funnel(db, datasets::resolve_sample(db, options.sample_name));
  auto finals = datasets::load_final_labels(db);
  // Predictions, and the screening that admits them, are read only for a report that shows them: a whole
  // table of either is large.
  auto predictions = options.include_predictions ? datasets::load_predictions(db)
                                                 : std::map<int64_t, datasets::Prediction>{};
  auto links = datasets::load_reproducer_links(db);
  const auto& catalog = options.catalog;
  auto screening = options.include_predictions ? datasets::load_screening(db)
                                               : std::map<int64_t, datasets::ScreeningDecision>{};
  auto is_candidate = [&](int64_t id) {
    auto s = screening.find(id);
    return s != screening.end() && s->second.made_candidate();
  };
  // Headlines only (a report shows no bodies), a batch at a time; cases in the order of repository and
  // number.
  auto add_case = [&](const datasets::IssueRecord& issue) {
    // Under the name of its funnel row: the funnel read this snapshot of the store, so it named every
    // spelling.
    const std::string& repo = data.funnel.row_names.at(issue.repo);
    Case c{issue.key(), repo, issue.number, issue.url, issue.title, "", "", "", 1.0, {}};
    if (auto f = finals.find(issue.id); f != finals.end()) {
      if (!data.funnel.final_issues.count(issue.id)) return;  // outside the sample: counted apart
      c.symptom = f->second.symptom;
      c.root_cause = f->second.root_cause;
      c.provenance = f->second.provenance;
    } else if (options.include_predictions && is_candidate(issue.id)) {
      auto p = predictions.find(issue.id);
      int* left_out = p == predictions.end()    ? &data.not_predicted.unclassified
                      : p->second.abstain       ? &data.not_predicted.abstained
                      : p->second.scope != "in" ? &data.not_predicted.predicted_out_of_scope
                                                : nullptr;
      if (left_out) {
        ++*left_out;
        return;
      }
      c.symptom = p->second.symptom;
      c.root_cause = p->second.root_cause;
      c.provenance = "predicted";
      c.confidence = std::min(p->second.symptom_p, p->second.root_cause_p);
    } else {
      return;
    }
    auto l = links.find(issue.id);
    if (l != links.end() && c.provenance != "predicted")  // the coverage table counts labeled cases
      data.links_to_unknown_reproducers +=
          static_cast<int>(links_to_unknown_reproducers(l->second, catalog).size());
    c.reproducers = case_reproducers(c, l == links.end() ? std::vector<std::string>{} : l->second, catalog);
    (c.provenance == "predicted" ? data.predicted_cases : data.cases).push_back(std::move(c));
  };
  data.cases.reserve(finals.size());  // at most one case per final label: no doubling of a large list
  datasets::for_each_issue_headline_batch(db, 2000, [&](std::vector<datasets::IssueRecord>& issues) {
    for (const auto& issue : issues) add_case(issue);
  });
  auto by_repository_and_number = [](const Case& a, const Case& b) {
    return std::tie(a.repo, a.number) < std::tie(b.repo, b.number);
  };
  std::sort(data.cases.begin(), data.cases.end(), by_repository_and_number);
  std::sort(data.predicted_cases.begin(), data.predicted_cases.end(), by_repository_and_number);
  // The audit of these labels, not the latest that passed: a failed audit since takes the labels back.
  if (auto audit = datasets::audit_of_final_labels(db)) {
    data.audit_kappa = audit->kappa_joint;
    data.audit_n = audit->n;
    data.audit_raters = static_cast<int>(annotation::parse_raters(audit->raters).size());
  }
  for (const auto& e : catalog) {
    data.reproducers[e.id].title = e.title;
    data.reproducers[e.id].root_cause = e.root_cause;
  }
  std::map<std::string, int> best_rank;
  for (const auto& r : datasets::latest_suite_results(db)) {
    auto& status = data.reproducers[r.repro_id];
    int rank = result_rank(r);
    auto known = best_rank.find(r.repro_id + r.variant);
    if (known != best_rank.end() && rank < known->second) continue;
    best_rank[r.repro_id + r.variant] = rank;
    (r.variant == "buggy" ? status.buggy : status.fixed) = r.outcome;
    (r.variant == "buggy" ? status.buggy_mode : status.fixed_mode) = r.mode;
  }
  data.gpu_results_by_architecture = datasets::latest_gpu_results_by_architecture(db);
  if (!options.evaluation_path.empty()) {
    data.evaluation_origin = options.evaluation_path;
    const std::string text = common::read_text_file(options.evaluation_path);
    try {
      data.evaluation = common::parse_json_strictly(text, options.evaluation_path);
    } catch (const Error& e) {
      throw Error(std::string(e.what()) + "; give the output of 'faultline --json eval'");
    }
    classifier_tables(*data.evaluation, data.audit_kappa,
                      data.evaluation_origin);  // a bad file fails here, before any output
  }
  return data;
}

}  // namespace

ReportData load_report_data(datasets::Database& db, const ReportOptions& options) {
  ReportData data;
  db.read_consistently([&] { data = report_data_of(db, options); });
  return data;
}

std::vector<std::string> repository_order(const std::vector<Case>& cases) {
  std::vector<std::string> order;
  for (const auto& r : taxonomy::Taxonomy::builtin().study().repositories) order.push_back(r.id);
  std::set<std::string> others;
  for (const auto& c : cases) {
    if (std::find(order.begin(), order.end(), c.repo) == order.end()) others.insert(c.repo);
  }
  order.insert(order.end(), others.begin(), others.end());
  return order;
}

std::set<std::string> reproduced_root_causes(const ReportData& data) {
  std::set<std::string> out;
  for (const auto& [id, status] : data.reproducers) {
    if (!status.root_cause.empty() && status.buggy == "reproduced") out.insert(status.root_cause);
  }
  return out;
}

int cases_with_source_reproducer(const std::vector<Case>& cases) {
  return static_cast<int>(std::count_if(cases.begin(), cases.end(), [](const Case& c) {
    return !c.reproducers.empty() && c.reproducers.front().how == "source";
  }));
}

std::string repository_name(const std::string& repo) {
  if (const auto* r = taxonomy::Taxonomy::builtin().study_repository(repo)) return r->name;
  return repo;
}

}  // namespace faultline::reports
