// Classifier rules: RE2 patterns that mark a category, compiled once into one RE2::Set so a document is
// scanned in linear time whatever the number of rules.
#pragma once

#include <re2/set.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace faultline::model {

struct Rule {
  std::string id;
  std::string axis;  // symptom | root_cause
  std::string category;
  std::string pattern;
  double weight = 1.0;
  std::string example;    // text the rule must fire on
  std::string near_miss;  // similar text it must not fire on
};

class RuleSet {
 public:
  // Validates axes and category ids against the taxonomy; errors name `origin` and the rule.
  static RuleSet from_json_text(const std::string& text, const std::string& origin);
  static const RuleSet& builtin();

  const std::vector<Rule>& rules() const { return rules_; }
  // Indexes into rules() of every rule whose pattern occurs in `text`, ascending. A pattern matches within a
  // line (RE2's never_nl): no match holds a line break.
  std::vector<int> fired(std::string_view text) const;
  // Sum of the weights of fired rules per category of `axis`.
  std::map<std::string, double> scores(const std::vector<int>& fired, const std::string& axis) const;

 private:
  std::vector<Rule> rules_;
  std::shared_ptr<RE2::Set> set_;
};

}  // namespace faultline::model
