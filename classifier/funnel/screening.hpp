// The study's screening step: which mined issues become candidates, each decision with the rule behind it.
#pragma once

#include <re2/re2.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "datasets/store/issue_record.hpp"

namespace faultline::funnel {

class ScreeningRules {
 public:
  struct Pattern {
    std::string id;
    std::shared_ptr<const RE2> regex;
  };
  // Throws faultline::Error naming `origin` and the rule when JSON or a pattern is invalid.
  static ScreeningRules from_json_text(const std::string& text, const std::string& origin);
  static ScreeningRules load_file(const std::string& path);
  static const ScreeningRules& builtin();

  const std::vector<Pattern>& title_terms() const { return title_terms_; }
  const std::vector<Pattern>& exclude_labels() const { return exclude_labels_; }

 private:
  std::vector<Pattern> title_terms_;
  std::vector<Pattern> exclude_labels_;
};

struct ScreeningOutcome {
  bool candidate = false;
  // "state:open", "label:<id>", "title:no-failure-term" for exclusions; "title:<term id>" for candidates;
  // "scope:in" / "scope:out" where a person's scope decision was followed.
  std::string rule;
};

enum class ScopeDecisions {
  kFollow,  // a person's recorded scope decision (e.g. from a corpus snapshot) stands over the rules
  kIgnore,  // the rules alone, as the study screened freshly mined issues
};

// Order of the checks: a person's scope decision (when followed), then open issues, then out-of-scope
// labels, then the failure terms of the title.
ScreeningOutcome screen_issue(const ScreeningRules& rules, const datasets::IssueRecord& issue,
                              ScopeDecisions scope = ScopeDecisions::kFollow);

struct RepositoryFunnel {
  int raw = 0;
  int candidates = 0;
  int scope_decisions = 0;   // of raw: screened by a recorded scope decision (a person's), not by the rules
  int overriding_rules = 0;  // of those: where the rules would have decided the other way
};
// Screens every issue in the store and records all decisions in one transaction.
std::map<std::string, RepositoryFunnel> screen_store(datasets::Database& db, const ScreeningRules& rules,
                                                     ScopeDecisions scope = ScopeDecisions::kFollow);

}  // namespace faultline::funnel
