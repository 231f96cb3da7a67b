#include "reports/issue_view.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

#include "common/joined.hpp"
#include "common/one_line.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/suite_store.hpp"
#include "reports/queue_line.hpp"

namespace faultline::reports {

using common::one_line;

namespace {

std::string probability(double p) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.2f", p);
  return buffer;
}

// Text from outside (the issue's, a rater's) printed on a terminal must not send escape codes, turn the line
// around or start a line that passes for one of the view's: a field is one line (common::one_line), and the
// body and discussion are blocks whose every line is indented.
std::string indented_block(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // a CRLF line end
    out += "    " + common::one_line(line) + "\n";
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return out;
}

std::vector<std::string> rules_fired(const datasets::Prediction& p) {
  return nlohmann::json::parse(p.rules_fired).get<std::vector<std::string>>();
}

}  // namespace

IssueView load_issue_view(datasets::Database& db, const std::string& repo, int64_t number,
                          const std::vector<datasets::CatalogEntry>& catalog) {
  IssueView view;
  int64_t id = datasets::require_issue(db, repo, number, "show");
  view.issue = datasets::load_issue_as_classified(db, id);  // a mined issue's comments are its discussion
  view.screening = datasets::find_screening(db, id);
  view.rater_labels = datasets::load_issue_labels(db, id);
  view.adjudication = datasets::find_adjudication(db, id);
  view.final_label = datasets::find_final_label(db, id);
  view.prediction = datasets::find_prediction(db, id);
  if (view.prediction) {
    view.queue = annotation::queue_standing(
        view.prediction->abstain,
        annotation::labeling_state(view.issue, view.final_label.has_value(), view.screening));
  }
  // The report's rule: the final label decides; a confident in-scope prediction stands in for a missing one.
  Case c;
  c.repo = view.issue.repo;
  c.number = view.issue.number;
  if (view.final_label) {
    c.symptom = view.final_label->symptom;
    c.root_cause = view.final_label->root_cause;
  } else if (view.prediction && !view.prediction->abstain && view.prediction->scope == "in") {
    c.symptom = view.prediction->symptom;
    c.root_cause = view.prediction->root_cause;
  }
  auto links = datasets::load_reproducer_links(db, id);
  view.reproducers = case_reproducers(c, links, catalog);
  view.unknown_links = links_to_unknown_reproducers(links, catalog);
  return view;
}

nlohmann::json issue_view_json(const IssueView& v) {
  const auto& i = v.issue;
  nlohmann::json j = {
      {"issue",
       {{"key", i.key()},
        {"url", i.url},
        {"state", i.state},
        {"created", i.created},
        {"labels", i.labels},
        {"title", i.title},
        {"body", i.body},
        {"error_lines", i.error_lines},
        {"env", i.env},
        {"discussion", i.discussion},
        {"scope", i.scope ? nlohmann::json(*i.scope) : nlohmann::json()},
        {"scope_reason", i.scope_reason ? nlohmann::json(*i.scope_reason) : nlohmann::json()}}},
      {"screening", nullptr},
      {"rater_labels", nlohmann::json::array()},
      {"adjudication", nullptr},
      {"final_label", nullptr},
      {"prediction", nullptr},
      {"reproducers", nlohmann::json::array()}};
  if (v.screening) j["screening"] = {{"decision", v.screening->decision}, {"rule", v.screening->rule}};
  for (const auto& r : v.rater_labels) {
    j["rater_labels"].push_back({{"rater", r.label.rater},
                                 {"symptom", r.label.symptom},
                                 {"root_cause", r.label.root_cause},
                                 {"note", r.label.note},
                                 {"batch", r.label.batch_id},
                                 {"source", r.source},
                                 {"imported_at", r.imported_at}});
  }
  if (v.adjudication) {
    j["adjudication"] = {{"adjudicator", v.adjudication->adjudicator},
                         {"symptom", v.adjudication->symptom},
                         {"root_cause", v.adjudication->root_cause},
                         {"note", v.adjudication->note},
                         {"source", v.adjudication->source}};
  }
  if (v.final_label) {
    j["final_label"] = {{"symptom", v.final_label->symptom},
                        {"root_cause", v.final_label->root_cause},
                        {"provenance", v.final_label->provenance},
                        {"raters", v.final_label->raters}};
  }
  if (v.prediction) {
    const auto& p = *v.prediction;
    j["prediction"] = {
        {"model_version", p.model_version},
        {"scope", p.scope},
        {"scope_p", p.scope_p},
        {"symptom", p.symptom},
        {"symptom_p", p.symptom_p},
        {"root_cause", p.root_cause},
        {"root_cause_p", p.root_cause_p},
        {"abstain", p.abstain},
        {"rules_fired", rules_fired(p)},
        {"symptom_threshold", p.symptom_threshold ? nlohmann::json(*p.symptom_threshold) : nlohmann::json()},
        {"root_cause_threshold",
         p.root_cause_threshold ? nlohmann::json(*p.root_cause_threshold) : nlohmann::json()},
        {"queue_standing", v.queue ? annotation::queue_standing_name(*v.queue) : ""}};
  }
  for (const auto& r : v.reproducers) j["reproducers"].push_back({{"id", r.id}, {"how", r.how}});
  j["unknown_links"] = v.unknown_links;
  return j;
}

std::string issue_view_text(const IssueView& v) {
  const auto& i = v.issue;
  std::string t = i.key() + " (" + one_line(i.state) + ", created " +
                  (i.created.empty() ? "on an unknown date" : one_line(i.created)) + ") " + one_line(i.url) +
                  "\n";
  t += "title:      " + one_line(i.title) + "\n";
  if (!i.labels.empty()) t += "labels:     " + one_line(common::joined(i.labels)) + "\n";
  if (i.scope)
    t += "scope:      " + one_line(*i.scope) +
         (i.scope_reason ? " (" + one_line(*i.scope_reason) + ")" : "") + "\n";
  if (!i.env.empty()) t += "env:        " + one_line(i.env) + "\n";
  for (const auto& e : i.error_lines) t += "error:      " + one_line(e) + "\n";
  t += "\n" + indented_block(i.body);
  if (!i.discussion.empty()) t += "\ndiscussion:\n" + indented_block(i.discussion);
  t += "\nscreening:  " +
       (v.screening ? v.screening->decision + " (rule: " + v.screening->rule + ")"
                    : std::string("not screened since it was stored or changed (run 'faultline screen')")) +
       "\n";
  if (v.rater_labels.empty()) t += "raters:     no rater has labeled it\n";
  for (const auto& r : v.rater_labels) {
    t += "rater:      " + one_line(r.label.rater) + ": " + r.label.symptom + " / " + r.label.root_cause +
         (r.label.note.empty() ? "" : " — " + one_line(r.label.note)) + " (batch " +
         std::to_string(r.label.batch_id) + ", " + one_line(r.source) + ", imported " + r.imported_at + ")\n";
  }
  if (v.adjudication) {
    t += "adjudged:   " + one_line(v.adjudication->adjudicator) + ": " + v.adjudication->symptom + " / " +
         v.adjudication->root_cause +
         (v.adjudication->note.empty() ? "" : " — " + one_line(v.adjudication->note)) + " (" +
         one_line(v.adjudication->source) + ")\n";
  }
  t += "final:      " +
       (v.final_label
            ? v.final_label->symptom + " / " + v.final_label->root_cause + " (" +
                  one_line(v.final_label->provenance) + "; raters " + one_line(v.final_label->raters) + ")"
            : std::string("none (no audited manual label)")) +
       "\n";
  if (v.prediction) {
    const auto& p = *v.prediction;
    auto fired = rules_fired(p);
    t += "predicted:  scope " + p.scope + " (p " + probability(p.scope_p) + "), " + p.symptom + " (p " +
         probability(p.symptom_p) + ") / " + p.root_cause + " (p " + probability(p.root_cause_p) + ")" +
         (p.abstain ? ", abstains" : "") + "; model " + p.model_version +
         "; rules fired: " + (fired.empty() ? "none" : common::joined(fired)) + "\n";
    if (v.queue) {
      t += "queue:      " +
           queue_line(*v.queue, p.symptom_p, p.symptom_threshold, p.root_cause_p, p.root_cause_threshold) +
           "\n";
    }
  } else {
    t += "predicted:  not classified since it was stored or changed (run 'faultline classify')\n";
  }
  if (v.reproducers.empty()) t += "reproducer: none\n";
  for (const auto& r : v.reproducers) {
    t += "reproducer: " + r.id +
         (r.how == "source" ? " (modeled on this issue)\n" : " (related: it shares the root cause)\n");
  }
  for (const auto& id : v.unknown_links)
    t += "reproducer: " + id + " (linked, but not among the reproducers' manifests: not counted)\n";
  return t;
}

}  // namespace faultline::reports
