#include "reports/triage.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "classifier/funnel/screening.hpp"
#include "classifier/model/classify_store.hpp"
#include "common/joined.hpp"
#include "common/one_line.hpp"
#include "common/utf8.hpp"
#include "datasets/store/issue_store.hpp"
#include "reports/queue_line.hpp"
#include "reports/report_data.hpp"

namespace faultline::reports {

namespace {

std::string probability(double p) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.2f", p);
  return buffer;
}

// A drop as the text shows it: "-0.030", or "<0.001" where three decimals would show none.
std::string drop(double d) {
  if (d < 0.0005) return "<0.001";
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "-%.3f", d);
  return buffer;
}

// Issue text comes from outside: on a terminal it must not start lines of its own, send escape codes or turn
// the line around (common::one_line), nor fill the screen. GitHub keeps a title within 256 characters, at
// most 1,024 bytes.
std::string shown(const std::string& text) {
  constexpr size_t kShownBytes = 1024;
  const size_t cut = common::utf8_prefix_length(text, kShownBytes);
  if (cut == text.size()) return common::one_line(text);
  return common::one_line(std::string_view(text).substr(0, cut)) + " … (" + std::to_string(text.size()) +
         " bytes in all)";
}

}  // namespace

Triage::Triage(datasets::Database& db, const std::string& model_dir,
               std::vector<datasets::CatalogEntry> catalog)
    : db_(db), model_(model::IssueClassifier::load(model_dir)), catalog_(std::move(catalog)), labeling_(db) {
  auto links = datasets::load_reproducer_links(db);
  std::vector<model::Tokens> documents;
  for (const auto& l : model::load_labeled_issues(db).cases) {
    auto it = links.find(l.issue.id);
    labeled_.push_back({l.issue.key(), l.issue.repo, l.issue.number, l.issue.url, l.symptom, l.root_cause,
                        it == links.end() ? std::vector<std::string>{} : it->second});
    documents.push_back(model::extract_features(model_.rules(), l.issue).tokens);
  }
  index_ = model::TfidfIndex(documents, model_.neighbour_max_document_share());
  for (auto& r : datasets::latest_suite_results(db)) last_suite_[r.repro_id].push_back(std::move(r));
}

datasets::IssueRecord Triage::stored_issue(const std::string& repo, int64_t number) const {
  return datasets::load_issue_as_classified(db_, datasets::require_issue(db_, repo, number, "triage"));
}

TriageReproducer Triage::reproducer(const std::string& id, const std::string& title) const {
  auto it = last_suite_.find(id);
  return {id, title, it == last_suite_.end() ? std::vector<datasets::SuiteResult>{} : it->second};
}

SimilarCase Triage::similar_case(const model::Neighbour& n) const {
  const Labeled& l = labeled_[n.item];
  return {l.issue, l.url, l.symptom, l.root_cause, n.similarity};
}

annotation::QueueStanding Triage::queue_standing(const datasets::IssueRecord& issue,
                                                 const std::optional<int64_t>& stored, bool abstains) const {
  // An issue of the store (its repository's name in any case) stands as the store says: its final label,
  // its screening decision, and the scope a person recorded unless the record brings its own, as an import
  // would. A new issue is screened here by the built-in rules, following the record's scope if it has one.
  if (stored) {
    const datasets::IssueRecord known = datasets::load_issue(db_, *stored);
    annotation::LabelingState state = labeling_.of(known);
    if (issue.scope) state.human_scope = issue.scope;
    return annotation::queue_standing(abstains, state);
  }
  const bool candidate = funnel::screen_issue(funnel::ScreeningRules::builtin(), issue).candidate;
  return annotation::queue_standing(abstains, {false, issue.scope, annotation::screened_as(candidate)});
}

TriageResult Triage::triage(const datasets::IssueRecord& issue) const {
  TriageResult r;
  r.issue = issue.key();
  r.url = issue.url;
  r.title = issue.title;
  r.model_version = model_.version();
  r.symptom_threshold = model_.symptom_model().label_threshold();
  r.root_cause_threshold = model_.root_cause_model().label_threshold();
  auto features = model::extract_features(model_.rules(), issue);
  r.analysis = model_.analyse(features);
  r.prediction = model_.predict(features, r.analysis);
  r.influences = model::token_influences(model_, features, r.prediction);
  const std::optional<int64_t> stored = datasets::find_issue(db_, issue.repo, issue.number);
  r.queue = queue_standing(issue, stored, r.prediction.abstain);
  if (stored) r.final_label = datasets::find_final_label(db_, *stored);

  // The nearest kSimilarShown, in the order of a full ranking (similarity, then item: a total order).
  const auto matches = index_.nearest(features.tokens, kSimilarShown);
  for (const auto& m : matches) r.similar.push_back(similar_case(m));
  // The reproducers modeled on a case, as the report links them (case_reproducers gives those first), of
  // the similar issues shown: further down, a case shares a word or two (similarity 0.04 named an unrelated
  // reproducer for nearly every issue, as few cases have one).
  for (const auto& m : matches) {
    const Labeled& l = labeled_[m.item];
    Case c;
    c.repo = l.repo;
    c.number = l.number;
    c.symptom = l.symptom;
    c.root_cause = l.root_cause;
    for (const auto& link : case_reproducers(c, l.manual_links, catalog_)) {
      if (link.how != "source") continue;
      // case_reproducers names only reproducers the catalog holds.
      auto entry =
          std::find_if(catalog_.begin(), catalog_.end(), [&](const auto& e) { return e.id == link.id; });
      r.similar_modeled.push_back({reproducer(link.id, entry->title), similar_case(m)});
    }
    if (!r.similar_modeled.empty()) break;
  }
  for (const auto& e : catalog_) {
    if (e.root_cause == r.prediction.root_cause)
      r.root_cause_reproducers.push_back(reproducer(e.id, e.title));
  }
  return r;
}

namespace {

// The chosen class, its probability and every class's (an empty object for an axis without a model).
nlohmann::json decision_json(const std::string& label, double p, const model::Distribution& distribution) {
  return {{"label", label}, {"p", p}, {"distribution", nlohmann::json(distribution)}};
}

nlohmann::json influences_json(const std::vector<model::TokenInfluence>& influences) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& i : influences) out.push_back({{"token", i.token}, {"drop", i.drop}});
  return out;
}

nlohmann::json similar_json(const SimilarCase& c) {
  return {{"issue", c.issue},
          {"url", c.url},
          {"symptom", c.symptom},
          {"root_cause", c.root_cause},
          {"similarity", c.similarity}};
}

nlohmann::json reproducer_json(const TriageReproducer& r) {
  nlohmann::json last = nlohmann::json::array();
  for (const auto& s : r.last_suite) {
    last.push_back({{"mode", s.mode}, {"variant", s.variant}, {"outcome", s.outcome}});
  }
  return {{"id", r.id}, {"title", r.title}, {"last_suite", last}};
}

std::string last_suite_text(const TriageReproducer& r) {
  if (r.last_suite.empty()) return "never run";
  std::string out;
  for (const auto& s : r.last_suite)
    out += (out.empty() ? "" : ", ") + s.mode + " " + s.variant + " " + s.outcome;
  return out;
}

std::string influences_text(const std::vector<model::TokenInfluence>& influences) {
  if (influences.empty()) return "none";
  std::string out;
  // A token holds any bytes but spaces: C1 and bidirectional controls among them are written out.
  for (const auto& i : influences)
    out += (out.empty() ? "" : ", ") + common::one_line(i.token) + " (" + drop(i.drop) + ")";
  return out;
}

}  // namespace

nlohmann::json triage_json(const TriageResult& r) {
  const auto& p = r.prediction;
  nlohmann::json similar = nlohmann::json::array(), modeled = nlohmann::json::array(),
                 related = nlohmann::json::array();
  for (const auto& c : r.similar) similar.push_back(similar_json(c));
  for (const auto& m : r.similar_modeled) {
    auto j = reproducer_json(m.reproducer);
    j["modeled_on"] = similar_json(m.modeled_on);
    modeled.push_back(j);
  }
  for (const auto& rep : r.root_cause_reproducers) related.push_back(reproducer_json(rep));
  return {{"issue", {{"key", r.issue}, {"url", r.url}, {"title", r.title}}},
          {"model_version", r.model_version},
          {"scope", decision_json(p.scope, p.scope_p, r.analysis.scope)},
          {"symptom", decision_json(p.symptom, p.symptom_p, r.analysis.symptom)},
          {"root_cause", decision_json(p.root_cause, p.root_cause_p, r.analysis.root_cause)},
          {"queued", r.queue == annotation::QueueStanding::kQueued},
          {"queue_standing", annotation::queue_standing_name(r.queue)},
          {"final_label", r.final_label ? nlohmann::json{{"symptom", r.final_label->symptom},
                                                         {"root_cause", r.final_label->root_cause},
                                                         {"provenance", r.final_label->provenance}}
                                        : nlohmann::json(nullptr)},
          {"label_thresholds", {{"symptom", r.symptom_threshold}, {"root_cause", r.root_cause_threshold}}},
          {"rules_fired", p.rules_fired},
          {"moved_by",
           {{"scope", influences_json(r.influences.scope)},
            {"symptom", influences_json(r.influences.symptom)},
            {"root_cause", influences_json(r.influences.root_cause)}}},
          {"tokens_tried", r.influences.tokens_tried},
          {"tokens_distinct", r.influences.tokens_distinct},
          {"similar", similar},
          {"similar_case_reproducers", modeled},
          {"root_cause_reproducers", related}};
}

std::string triage_text(const TriageResult& r) {
  const auto& p = r.prediction;
  std::string t = r.issue + "  " + shown(r.url) + "\n";
  t += "title:       " + shown(r.title) + "\n";
  t += "scope:       " + p.scope +
       (p.scope == "unknown" ? " (no scope model)" : " (p " + probability(p.scope_p) + ")") + "\n";
  t += "symptom:     " + p.symptom + " (p " + probability(p.symptom_p) + ")\n";
  t += "root cause:  " + p.root_cause + " (p " + probability(p.root_cause_p) + ")\n";
  if (r.final_label) {
    t += "final label: " + r.final_label->symptom + " / " + r.final_label->root_cause + " (" +
         r.final_label->provenance + "; in force, the prediction does not replace it)\n";
  }
  t += "queue:       " +
       queue_line(r.queue, p.symptom_p, r.symptom_threshold, p.root_cause_p, r.root_cause_threshold,
                  QueueMood::kWouldBe) +
       "; model " + r.model_version + "\n";
  t += "rules fired: " + (p.rules_fired.empty() ? std::string("none") : common::joined(p.rules_fired)) + "\n";
  t += "tokens whose removal lowers each decision's probability most (by how much; " +
       std::to_string(r.influences.tokens_tried) + " of " + std::to_string(r.influences.tokens_distinct) +
       " distinct tokens tried):\n";
  if (p.scope != "unknown") t += "  scope:       " + influences_text(r.influences.scope) + "\n";
  t += "  symptom:     " + influences_text(r.influences.symptom) + "\n";
  t += "  root cause:  " + influences_text(r.influences.root_cause) + "\n";
  t += "most similar labeled issues:\n";
  if (r.similar.empty()) t += "  none shares a token with it\n";
  for (const auto& c : r.similar) {
    t += "  " + probability(c.similarity) + "  " + c.issue + "  " + c.symptom + " / " + c.root_cause + "  " +
         shown(c.url) + "\n";
  }
  if (r.similar_modeled.empty()) {
    t += r.similar.empty()
             ? "reproducer modeled on a similar case: none (no labeled issue shares a token with it)\n"
             : "reproducer modeled on a similar case: none (none of the " + std::to_string(r.similar.size()) +
                   " most similar labeled issues has one)\n";
  }
  for (const auto& m : r.similar_modeled) {
    t += "reproducer modeled on a similar case: " + m.reproducer.id + " (" + m.modeled_on.issue +
         ", similarity " + probability(m.modeled_on.similarity) + "): " + shown(m.reproducer.title) +
         "; last suite: " + last_suite_text(m.reproducer) + "\n";
  }
  t += "reproducers of " + p.root_cause + ":" + (r.root_cause_reproducers.empty() ? " none\n" : "\n");
  for (const auto& rep : r.root_cause_reproducers) {
    t += "  " + rep.id + ": " + shown(rep.title) + "; last suite: " + last_suite_text(rep) + "\n";
  }
  return t;
}

}  // namespace faultline::reports
