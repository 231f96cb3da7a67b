#include "classifier/funnel/funnel.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"

namespace faultline::funnel {

std::vector<FunnelRow> compute_funnel(datasets::Database& db, const std::string& sample_name) {
  std::map<std::string, FunnelRow> rows;
  std::map<int64_t, std::string> repo_of;
  for (const auto& issue : datasets::load_issues(db)) {
    repo_of[issue.id] = issue.repo;
    rows[issue.repo].repo = issue.repo;
    ++rows[issue.repo].raw;
  }
  for (const auto& [id, d] : datasets::load_screening(db)) {
    if (d.decision == "candidate") ++rows[repo_of[id]].candidates;
  }
  std::set<int64_t> excluded;
  for (const auto& e : datasets::load_sample(db, sample_name)) {
    auto& row = rows[repo_of[e.issue_id]];
    e.status == "sampled" ? ++row.sampled : ++row.excluded;
    if (e.status == "excluded") excluded.insert(e.issue_id);
  }
  // An issue taken out of the sample is out of the study, whatever labels it had gathered.
  for (const auto& [id, label] : datasets::load_final_labels(db)) {
    if (!excluded.count(id)) ++rows[repo_of[id]].labeled;
  }
  std::vector<FunnelRow> out;
  for (auto& [repo, row] : rows) out.push_back(row);
  return out;
}

FunnelRow funnel_total(const std::vector<FunnelRow>& rows) {
  FunnelRow total{"Total"};
  for (const auto& r : rows) {
    total.raw += r.raw;
    total.candidates += r.candidates;
    total.sampled += r.sampled;
    total.excluded += r.excluded;
    total.labeled += r.labeled;
  }
  return total;
}

nlohmann::json funnel_json(const std::vector<FunnelRow>& rows) {
  auto row_json = [](const FunnelRow& r) {
    return nlohmann::json{{"repo", r.repo},       {"raw", r.raw},           {"candidate", r.candidates},
                          {"sampled", r.sampled}, {"excluded", r.excluded}, {"final", r.labeled}};
  };
  nlohmann::json j = {{"repositories", nlohmann::json::array()}};
  for (const auto& r : rows) j["repositories"].push_back(row_json(r));
  j["total"] = row_json(funnel_total(rows));
  return j;
}

}  // namespace faultline::funnel
