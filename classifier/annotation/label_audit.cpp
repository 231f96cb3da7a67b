#include "classifier/annotation/label_audit.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "classifier/annotation/label_sheets.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "common/error.hpp"

namespace faultline::annotation {

namespace {

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string issue_key(datasets::Database& db, int64_t id) {
  auto issue = datasets::load_issue(db, id);
  return issue.key();
}

}  // namespace

AuditResult run_audit(datasets::Database& db, std::vector<std::string> raters, double threshold) {
  if (raters.empty()) raters = datasets::list_raters(db);
  if (raters.size() < 2) {
    throw Error("audit: needs labels from at least two raters; the store has " +
                std::to_string(raters.size()) +
                " (import them with 'faultline label import --rater NAME FILE.csv')");
  }
  if (std::set<std::string>(raters.begin(), raters.end()).size() != raters.size()) {
    throw Error("audit: a rater is named twice in --raters");
  }
  AuditResult result;
  result.raters = raters;
  result.threshold = threshold;

  // labels[issue][rater index]
  std::map<int64_t, std::vector<const datasets::ManualLabel*>> by_issue;
  std::vector<std::vector<datasets::ManualLabel>> all(raters.size());
  for (size_t r = 0; r < raters.size(); ++r) {
    all[r] = datasets::load_manual_labels(db, raters[r]);
    if (all[r].empty()) throw Error("audit: rater '" + raters[r] + "' has no labels in the store");
    for (const auto& l : all[r]) {
      auto& slot = by_issue[l.issue_id];
      slot.resize(raters.size(), nullptr);
      slot[r] = &l;
    }
  }
  auto adjudications = datasets::load_adjudications(db);

  std::vector<std::vector<std::string>> joint_by_item, symptom_by_item, cause_by_item;
  std::vector<datasets::FinalLabel> finals;
  for (const auto& [issue_id, slots] : by_issue) {
    bool complete = true;
    for (const auto* l : slots) complete = complete && l;
    auto adjudication = adjudications.find(issue_id);
    if (!complete) {
      // Labeled by only some raters: it cannot be audited, but an adjudicator may still settle it.
      if (adjudication != adjudications.end()) {
        finals.push_back({issue_id, adjudication->second.symptom, adjudication->second.root_cause,
                          "adjudicated", adjudication->second.adjudicator});
      }
      continue;
    }
    std::vector<std::string> joint, symptoms, causes;
    for (const auto* l : slots) {
      joint.push_back(l->symptom + "/" + l->root_cause);
      symptoms.push_back(l->symptom);
      causes.push_back(l->root_cause);
    }
    joint_by_item.push_back(joint);
    symptom_by_item.push_back(symptoms);
    cause_by_item.push_back(causes);
    bool agreed = std::set<std::string>(joint.begin(), joint.end()).size() == 1;
    if (adjudication != adjudications.end()) {
      finals.push_back({issue_id, adjudication->second.symptom, adjudication->second.root_cause,
                        "adjudicated", join(raters, ",") + "+" + adjudication->second.adjudicator});
    } else if (agreed) {
      finals.push_back({issue_id, symptoms[0], causes[0], "agreed", join(raters, ",")});
    }
    if (!agreed) {
      Disagreement d{issue_id, issue_key(db, issue_id), joint, adjudication != adjudications.end()};
      if (!d.adjudicated) result.pending.push_back(d.issue);
      result.disagreements.push_back(d);
    }
  }
  result.n = static_cast<int>(joint_by_item.size());
  if (result.n == 0) throw Error("audit: no issue was labeled by every one of " + join(raters, ", "));

  auto column = [](const std::vector<std::vector<std::string>>& items, size_t r) {
    std::vector<std::string> out;
    for (const auto& item : items) out.push_back(item[r]);
    return out;
  };
  // Cohen's statistics describe the first two raters; with more, Fleiss' kappa is the gate.
  result.joint = cohen_kappa(column(joint_by_item, 0), column(joint_by_item, 1));
  result.symptom = cohen_kappa(column(symptom_by_item, 0), column(symptom_by_item, 1));
  result.root_cause = cohen_kappa(column(cause_by_item, 0), column(cause_by_item, 1));
  double gate_kappa = result.joint.kappa;
  if (raters.size() > 2) {
    result.fleiss_joint = fleiss_kappa(joint_by_item);
    gate_kappa = result.fleiss_joint;
  }
  char buffer[160];
  if (gate_kappa >= threshold) {
    result.gate = "pass";
    std::snprintf(buffer, sizeof buffer, "kappa %.3f reaches the threshold %.2f", gate_kappa, threshold);
  } else {
    result.gate = "fail";
    std::snprintf(
        buffer, sizeof buffer,
        "kappa %.3f is below the threshold %.2f: labels stay pending; revise the codebook and re-label",
        gate_kappa, threshold);
  }
  result.gate_reason = buffer;

  db.transaction([&] {
    result.audit_id =
        datasets::record_audit(db, join(raters, ","), result.n, gate_kappa, threshold, result.gate);
    if (result.gate == "pass") {
      datasets::replace_final_labels(db, finals, result.audit_id);
      for (const auto& f : finals)
        f.provenance == "agreed" ? ++result.promoted_agreed : ++result.promoted_adjudicated;
    }
  });
  return result;
}

std::vector<std::string> parse_raters(const std::string& comma_separated) {
  std::vector<std::string> out;
  std::stringstream in(comma_separated);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

AdjudicationImport import_adjudications(datasets::Database& db, const std::string& path) {
  auto rows = read_label_csv(db, path);
  AdjudicationImport out;
  db.transaction([&] {
    for (const auto& row : rows) {
      datasets::put_adjudication(db, {row.issue_id, row.rater.empty() ? "adjudicator" : row.rater,
                                      row.symptom, row.root_cause, row.note, path});
    }
  });
  out.imported = static_cast<int>(rows.size());
  auto last = db.prepare("SELECT raters, threshold FROM audits ORDER BY id DESC LIMIT 1");
  if (last.step()) {
    out.audit = run_audit(db, parse_raters(last.text(0)), last.real(1));
    out.audited = true;
  }
  return out;
}

nlohmann::json audit_json(const AuditResult& a) {
  auto agreement = [](const Agreement& g) {
    return nlohmann::json{{"kappa", g.kappa},
                          {"observed_agreement", g.observed},
                          {"expected_agreement", g.expected},
                          {"ci95", {g.ci_low, g.ci_high}},
                          {"per_category", g.per_category},
                          {"confusion", g.confusion}};
  };
  nlohmann::json j = {{"n", a.n},
                      {"raters", a.raters},
                      {"kappa_joint", a.joint.kappa},
                      {"kappa_symptom", a.symptom.kappa},
                      {"kappa_root_cause", a.root_cause.kappa},
                      {"kappa_joint_ci95", {a.joint.ci_low, a.joint.ci_high}},
                      {"observed_agreement", a.joint.observed},
                      {"expected_agreement", a.joint.expected},
                      {"threshold", a.threshold},
                      {"gate", a.gate},
                      {"gate_reason", a.gate_reason},
                      {"promoted", {{"agreed", a.promoted_agreed}, {"adjudicated", a.promoted_adjudicated}}},
                      {"pending", a.pending},
                      {"symptom", agreement(a.symptom)},
                      {"root_cause", agreement(a.root_cause)}};
  if (a.raters.size() > 2) j["kappa_fleiss_joint"] = a.fleiss_joint;
  j["disagreements"] = nlohmann::json::array();
  for (const auto& d : a.disagreements) {
    j["disagreements"].push_back({{"issue", d.issue}, {"labels", d.labels}, {"adjudicated", d.adjudicated}});
  }
  return j;
}

}  // namespace faultline::annotation
