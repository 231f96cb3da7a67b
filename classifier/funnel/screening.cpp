#include "classifier/funnel/screening.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/strict_json.hpp"
#include "common/text_file.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "taxonomy/builtin_data.hpp"

namespace faultline::funnel {

namespace {

// Titles and labels that say nothing of a failure, as a title term and an out-of-scope label must not all
// match (labels are matched whole).
const std::vector<const char*> kOrdinaryTitles = {"Update README", "Add support for Hopper",
                                                  "How do I install it on Windows?", "v2.1 release notes"};
const std::vector<const char*> kOrdinaryLabels = {"bug", "cuda", "high priority"};

std::vector<ScreeningRules::Pattern> compile(const nlohmann::json& doc, const std::string& origin,
                                             const char* key, const char* section) {
  const bool labels = std::string_view(key) == "exclude_labels";
  const std::string where = "screening rules " + origin + ": ";
  if (!doc.contains(key) || !doc[key].is_array()) throw Error(where + "'" + key + "' must be a list");
  std::vector<ScreeningRules::Pattern> out;
  std::set<std::string> ids;
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  const auto& list = doc[key];
  for (size_t i = 0; i < list.size(); ++i) {
    const auto& entry = list[i];
    const std::string which = where + section + " " + std::to_string(i + 1);
    auto text = [&](const char* field) {
      if (!entry.is_object() || !entry.contains(field) || !entry[field].is_string() ||
          entry[field].get<std::string>().empty())
        throw Error(which + ": needs \"id\" and \"pattern\", each a non-empty string");
      return entry[field].get<std::string>();
    };
    const std::string id = text("id"), pattern = text("pattern");
    if (!ids.insert(id).second) throw Error(which + ": the id '" + id + "' is given twice");
    auto regex = std::make_shared<const RE2>(pattern, options);
    if (!regex->ok()) throw Error(which + " ('" + id + "') has an invalid pattern: " + regex->error());
    // A pattern that matches the empty text, or every one of a few ordinary titles (labels) that name no
    // failure (\b, [a-z], ..), matches about every title (label): it screens nothing.
    const auto& ordinary = labels ? kOrdinaryLabels : kOrdinaryTitles;
    const bool matches_all = std::all_of(ordinary.begin(), ordinary.end(), [&](const char* text) {
      return labels ? RE2::FullMatch(text, *regex) : RE2::PartialMatch(text, *regex);
    });
    if (RE2::PartialMatch("", *regex) || matches_all)
      throw Error(which + " ('" + id + "') matches the empty text or every ordinary " +
                  (labels ? "label" : "title") + ", so it screens nothing");
    out.push_back({id, regex});
  }
  return out;
}

}  // namespace

ScreeningRules ScreeningRules::from_json_text(const std::string& text, const std::string& origin) {
  ScreeningRules rules;
  const auto doc = common::parse_json_strictly(text, "screening rules " + origin);
  if (!doc.is_object()) throw Error("screening rules " + origin + ": not a JSON object");
  rules.title_terms_ = compile(doc, origin, "title_terms", "title term");
  rules.exclude_labels_ = compile(doc, origin, "exclude_labels", "exclude label");
  if (rules.title_terms_.empty()) throw Error("screening rules " + origin + ": no title terms");
  return rules;
}

ScreeningRules ScreeningRules::load_file(const std::string& path) {
  return from_json_text(common::read_text_file(path), path);
}

const ScreeningRules& ScreeningRules::builtin() {
  static const ScreeningRules rules =
      from_json_text(taxonomy::builtin_screening_json(), "taxonomy/screening.json");
  return rules;
}

ScreeningOutcome screen_issue(const ScreeningRules& rules, const datasets::IssueRecord& issue,
                              ScopeDecisions scope) {
  // A person who read the issue outranks keyword rules, as an audited label outranks the classifier.
  if (scope == ScopeDecisions::kFollow && issue.scope) return {*issue.scope == "in", "scope:" + *issue.scope};
  if (issue.state != "closed") return {false, "state:" + issue.state};
  for (const auto& label : issue.labels) {
    for (const auto& p : rules.exclude_labels()) {
      if (RE2::FullMatch(label, *p.regex)) return {false, "label:" + p.id};
    }
  }
  for (const auto& p : rules.title_terms()) {
    if (RE2::PartialMatch(issue.title, *p.regex)) return {true, "title:" + p.id};
  }
  return {false, "title:no-failure-term"};
}

std::map<std::string, RepositoryFunnel> screen_store(datasets::Database& db, const ScreeningRules& rules,
                                                     ScopeDecisions scope) {
  std::map<std::string, RepositoryFunnel> funnel;
  // One transaction (a killed screen leaves the previous decisions), the issues read a batch at a time
  // without their texts, which screening never reads.
  db.transaction([&] {
    datasets::ScreeningWriter writer(db);
    datasets::for_each_issue_headline_batch(db, 2000, [&](std::vector<datasets::IssueRecord>& issues) {
      for (const auto& issue : issues) {
        ScreeningOutcome outcome = screen_issue(rules, issue, scope);
        auto& f = funnel[issue.repo];
        ++f.raw;
        if (outcome.candidate) ++f.candidates;
        if (outcome.rule.rfind("scope:", 0) == 0) {
          ++f.scope_decisions;
          f.overriding_rules +=
              screen_issue(rules, issue, ScopeDecisions::kIgnore).candidate != outcome.candidate;
        }
        writer.add({issue.id,
                    outcome.candidate ? datasets::ScreeningDecision::kCandidate
                                      : datasets::ScreeningDecision::kExcluded,
                    outcome.rule});
      }
    });
  });
  return funnel;
}

}  // namespace faultline::funnel
