#include "classifier/annotation/label_audit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "classifier/annotation/label_sheets.hpp"
#include "common/ascii_case.hpp"
#include "common/error.hpp"
#include "common/joined.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"

namespace faultline::annotation {

namespace {

// Who settled an adjudication whose rater column is empty.
constexpr const char* kDefaultAdjudicator = "adjudicator";

std::string issue_key(datasets::Database& db, int64_t id) {
  auto issue = datasets::load_issue(db, id);
  return issue.key();
}

// A person's decision that the issue is out of scope settles it: it waits for no adjudicator.
bool put_out_of_scope(const datasets::IssueRecord& issue) { return issue.scope == "out"; }

// labels[issue][rater index]; empty where that rater did not label the issue.
using LabelsByIssue = std::map<int64_t, std::vector<std::optional<datasets::ManualLabel>>>;

// The items every rater labeled, as one label per rater, on each axis and jointly.
struct RatedItems {
  std::vector<std::vector<std::string>> joint, symptom, root_cause;
};

std::vector<std::string> resolve_raters(datasets::Database& db, std::vector<std::string> raters) {
  if (raters.empty()) {
    raters = datasets::list_raters(db);
    if (raters.size() < 2) {
      throw Error("audit: needs labels from at least two raters; the store has " +
                  std::to_string(raters.size()) +
                  " (import them with 'faultline label import --rater NAME FILE.csv')");
    }
  } else if (raters.size() < 2) {
    throw Error("audit: --raters names one rater; an audit compares two or more");
  }
  if (std::set<std::string>(raters.begin(), raters.end()).size() != raters.size()) {
    throw Error("audit: a rater is named twice in --raters");
  }
  return raters;
}

LabelsByIssue collect_labels(datasets::Database& db, const std::vector<std::string>& raters) {
  LabelsByIssue by_issue;
  for (size_t r = 0; r < raters.size(); ++r) {
    auto labels = datasets::load_manual_labels(db, raters[r]);
    if (labels.empty()) throw Error("audit: rater '" + raters[r] + "' has no labels in the store");
    for (auto& l : labels) {
      auto& slots = by_issue[l.issue_id];
      slots.resize(raters.size());
      slots[r] = std::move(l);
    }
  }
  return by_issue;
}

// Sorts every labeled issue into agreed, adjudicated, disagreement or pending, and collects the labels of
// the issues every rater labeled for scoring.
RatedItems decide(datasets::Database& db, const LabelsByIssue& by_issue, AuditResult& result) {
  auto adjudications = datasets::load_adjudications(db);
  std::string raters = common::joined(result.raters, ",");
  RatedItems items;
  for (const auto& [issue_id, slots] : by_issue) {
    bool complete = std::all_of(slots.begin(), slots.end(), [](const auto& l) { return l.has_value(); });
    auto adjudication = adjudications.find(issue_id);
    bool adjudicated = adjudication != adjudications.end();
    if (!complete) {
      // Labeled by only some raters: it cannot be audited, and stays pending until an adjudicator settles it.
      if (adjudicated) {
        result.finals.push_back({issue_id, adjudication->second.symptom, adjudication->second.root_cause,
                                 kAdjudicated, adjudication->second.adjudicator});
      } else if (const datasets::IssueRecord issue = datasets::load_issue(db, issue_id);
                 put_out_of_scope(issue)) {
        result.out_of_scope.push_back(issue.key());
      } else {
        result.pending.push_back(issue.key());
        result.partially_labeled.push_back(issue.key());
      }
      continue;
    }
    std::vector<std::string> joint, symptoms, causes;
    for (const auto& l : slots) {
      joint.push_back(l->symptom + "/" + l->root_cause);
      symptoms.push_back(l->symptom);
      causes.push_back(l->root_cause);
    }
    bool agreed = std::set<std::string>(joint.begin(), joint.end()).size() == 1;
    if (adjudicated && agreed &&
        adjudication->second.symptom + "/" + adjudication->second.root_cause != joint.front())
      result.overruled_agreements.push_back(issue_key(db, issue_id));
    if (adjudicated) {
      result.finals.push_back({issue_id, adjudication->second.symptom, adjudication->second.root_cause,
                               kAdjudicated, raters + "+" + adjudication->second.adjudicator});
    } else if (agreed) {
      result.finals.push_back({issue_id, symptoms[0], causes[0], kAgreed, raters});
    }
    if (!agreed) {
      const datasets::IssueRecord issue = datasets::load_issue(db, issue_id);  // read once: key and scope
      Disagreement d{issue_id, issue.key(), joint, adjudicated};
      if (!d.adjudicated) (put_out_of_scope(issue) ? result.out_of_scope : result.pending).push_back(d.issue);
      result.disagreements.push_back(d);
    }
    items.joint.push_back(std::move(joint));
    items.symptom.push_back(std::move(symptoms));
    items.root_cause.push_back(std::move(causes));
  }
  // An adjudicator may settle any issue, also one no audited rater labeled: its label is the adjudicator's.
  for (const auto& [issue_id, a] : adjudications) {
    if (!by_issue.count(issue_id))
      result.finals.push_back({issue_id, a.symptom, a.root_cause, kAdjudicated, a.adjudicator});
  }
  return items;
}

// Whether `kappa` reaches `threshold`. Kappa is a ratio of sums of shares and carries their rounding (4/5
// computed from 12 issues is 0.7999999999999999, which a threshold of 0.8 must let pass): it is compared at
// twelve decimals, far past the rounding and any threshold a person gives.
bool reaches(double kappa, double threshold) { return std::round(kappa * 1e12) / 1e12 >= threshold; }

// `kappa` with three decimals, or as many more (up to twelve) as it takes not to read as equal to or on the
// other side of `threshold` (0.7996 against 0.8 prints 0.7996, not 0.800).
std::string digits_to_tell_apart(double kappa, double threshold) {
  char buffer[32];
  for (int digits = 3;; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, kappa);
    const double shown = std::strtod(buffer, nullptr);
    if (digits == 12 || reaches(shown, threshold) == reaches(kappa, threshold)) return buffer;
  }
}

// Cohen's statistics describe the first two raters; with more, Fleiss' kappa is the gate.
void score(const RatedItems& items, AuditResult& result) {
  result.n = static_cast<int>(items.joint.size());
  if (result.n == 0)
    throw Error("audit: no issue was labeled by every one of " + common::joined(result.raters, ", "));
  auto column = [](const std::vector<std::vector<std::string>>& rated, size_t r) {
    std::vector<std::string> out;
    for (const auto& item : rated) out.push_back(item[r]);
    return out;
  };
  result.joint = cohen_kappa(column(items.joint, 0), column(items.joint, 1));
  result.symptom = cohen_kappa(column(items.symptom, 0), column(items.symptom, 1));
  result.root_cause = cohen_kappa(column(items.root_cause, 0), column(items.root_cause, 1));
  result.gate_kappa = result.joint.kappa;
  if (result.raters.size() > 2) {
    result.fleiss_joint = fleiss_kappa(items.joint);
    result.gate_kappa = result.fleiss_joint;
  }
  if (std::isnan(result.gate_kappa)) {
    // Chance explains all the agreement: a gate passed here would make labels final on no evidence.
    throw Error("audit: kappa is undefined: every rater gave each of the " + std::to_string(result.n) +
                " issues they all labeled one and the same label (" + items.joint.front().front() +
                "), so no agreement beyond chance can be measured; audit issues of more than one label");
  }
  const std::string kappa = digits_to_tell_apart(result.gate_kappa, result.threshold);
  // The threshold to the digits it was given with (0.8000001 is not 0.8).
  const std::string threshold = nlohmann::json(result.threshold).dump();
  if (reaches(result.gate_kappa, result.threshold)) {
    result.gate = "pass";
    result.gate_reason = "kappa " + kappa + " reaches the threshold " + threshold;
  } else {
    result.gate = "fail";
    result.gate_reason = "kappa " + kappa + " is below the threshold " + threshold +
                         ": labels stay pending; revise the codebook and re-label";
  }
}

void persist(datasets::Database& db, AuditResult& result) {
  db.transaction([&] {
    result.audit_id = datasets::record_audit(db, common::joined(result.raters, ","), result.n,
                                             result.gate_kappa, result.threshold, result.gate);
    // The final labels are this audit's alone: an issue final before and not now is withdrawn, whether the
    // gate failed or passed over other raters or labels.
    std::set<int64_t> now_final;
    if (result.gate == "pass") {
      for (const auto& f : result.finals) {
        f.provenance == kAgreed ? ++result.promoted_agreed : ++result.promoted_adjudicated;
        now_final.insert(f.issue_id);
      }
    }
    for (const auto& [issue_id, label] : datasets::load_final_labels(db))
      result.withdrawn += !now_final.count(issue_id);
    datasets::replace_final_labels(
        db, result.gate == "pass" ? result.finals : std::vector<datasets::FinalLabel>{}, result.audit_id);
  });
}

}  // namespace

AuditResult assess_labels(datasets::Database& db, std::vector<std::string> raters, double threshold) {
  AuditResult result;
  result.raters = resolve_raters(db, std::move(raters));
  result.threshold = threshold;
  score(decide(db, collect_labels(db, result.raters), result), result);
  return result;
}

AuditResult run_audit(datasets::Database& db, std::vector<std::string> raters, double threshold) {
  AuditResult result = assess_labels(db, std::move(raters), threshold);
  persist(db, result);
  return result;
}

namespace {

// The latest audit run again by `verb` inside its transaction: an audit that cannot run now (its kappa
// undefined, a rater left without labels) undoes the verb's writes too, and the message says so.
AuditResult rerun_audit(datasets::Database& db, const std::vector<std::string>& raters, double threshold,
                        const std::string& verb) {
  try {
    return run_audit(db, raters, threshold);
  } catch (const Error& e) {
    throw Error(verb + ": nothing was imported: running the latest audit (" + common::joined(raters, ",") +
                ") again with these labels failed: " + e.what());
  }
}

}  // namespace

RaterImport import_rater_labels(datasets::Database& db, const std::string& rater, const std::string& path,
                                bool replace) {
  RaterImport out;
  // The labels and the audit they change commit together: a kill or a full disk between them left final
  // labels "agreed" on labels the rater had changed.
  db.transaction([&] {
    out.labels = import_label_sheet(db, rater, path, replace);
    if (auto last = datasets::latest_audit(db)) {
      const auto raters = parse_raters(last->raters);
      if (std::find(raters.begin(), raters.end(), rater) != raters.end())
        out.audit = rerun_audit(db, raters, last->threshold, "label import");
    }
  });
  return out;
}

std::optional<AuditResult> assess_latest_audit(datasets::Database& db) {
  auto last = datasets::latest_audit(db);
  if (!last) return std::nullopt;
  return assess_labels(db, parse_raters(last->raters), last->threshold);
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
  for (auto& row : rows) {
    if (row.rater.empty()) row.rater = kDefaultAdjudicator;
    require_adjudicator_name(row.rater, row.where);
  }
  AdjudicationImport out;
  // The adjudications and the audit that promotes them commit together (as import_rater_labels).
  db.transaction([&] {
    for (const auto& row : rows) {
      datasets::put_adjudication(db, {row.issue_id, row.rater, row.symptom, row.root_cause, row.note, path});
    }
    out.imported = static_cast<int>(rows.size());
    if (auto last = datasets::latest_audit(db))
      out.audit = rerun_audit(db, parse_raters(last->raters), last->threshold, "adjudicate");
  });
  return out;
}

std::vector<std::string> adjudication_queue(datasets::Database& db, AdjudicationQueue queue) {
  auto audit = assess_latest_audit(db);
  if (!audit) throw Error("label export: no audit has run yet (run 'faultline audit' first)");
  if (queue == AdjudicationQueue::kPending) return audit->pending;
  std::vector<std::string> keys;
  for (const auto& d : audit->disagreements) {
    if (std::find(audit->pending.begin(), audit->pending.end(), d.issue) != audit->pending.end())
      keys.push_back(d.issue);
  }
  return keys;
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
                      // Cohen's figures below compare these two; with more raters, Fleiss' is the gate's.
                      {"cohen_raters", {a.raters.at(0), a.raters.at(1)}},
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
                      {"withdrawn", a.withdrawn},
                      {"pending", a.pending},
                      {"pending_partially_labeled", a.partially_labeled},
                      {"out_of_scope", a.out_of_scope},
                      {"overruled_agreements", a.overruled_agreements},
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
