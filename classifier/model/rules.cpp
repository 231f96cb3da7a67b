#include "classifier/model/rules.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/strict_json.hpp"
#include "common/text_file.hpp"
#include "taxonomy/builtin_data.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::model {

namespace {

// The first anchor to the start or end of the text in `pattern` (^, $, \A, \z), outside character classes;
// nullptr if none. Scanned as text: an escaped character is skipped, a class runs to its closing bracket.
const char* text_anchor(const std::string& pattern) {
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      if (pattern[i + 1] == 'A') return "\\A";
      if (pattern[i + 1] == 'z') return "\\z";
      ++i;
    } else if (c == '[') {
      size_t j = i + 1;
      if (j < pattern.size() && pattern[j] == '^') ++j;
      if (j < pattern.size() && pattern[j] == ']') ++j;  // a ']' first in a class is itself
      while (j < pattern.size() && pattern[j] != ']') j += pattern[j] == '\\' ? 2 : 1;
      i = j;
    } else if (c == '^') {
      return "^";
    } else if (c == '$') {
      return "$";
    }
  }
  return nullptr;
}

}  // namespace

RuleSet RuleSet::from_json_text(const std::string& text, const std::string& origin) {
  RuleSet set;
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  // A rule matches anywhere within one line: no pattern can span the line break between two parts of an
  // issue, nor hold to where a text starts or ends (refused below), so the parts can be scanned apart
  // (extract_features).
  options.set_never_nl(true);
  set.set_ = std::make_shared<RE2::Set>(options, RE2::UNANCHORED);
  const auto& taxonomy = taxonomy::Taxonomy::builtin();
  try {
    const nlohmann::json doc = common::parse_json_strictly(text, "rules " + origin);
    for (const auto& node : doc.at("rules")) {
      Rule r;
      r.id = node.at("id").get<std::string>();
      r.axis = node.at("axis").get<std::string>();
      r.category = node.at("category").get<std::string>();
      r.pattern = node.at("pattern").get<std::string>();
      r.weight = node.at("weight").get<double>();
      r.example = node.value("example", "");
      r.near_miss = node.value("near_miss", "");
      std::string where = "rules " + origin + ": rule '" + r.id + "'";
      if (r.axis == "symptom") {
        if (!taxonomy.is_symptom(r.category)) throw Error(where + ": unknown symptom '" + r.category + "'");
      } else if (r.axis == "root_cause") {
        if (!taxonomy.is_root_cause(r.category))
          throw Error(where + ": unknown root cause '" + r.category + "'");
      } else {
        throw Error(where + ": axis '" + r.axis + "' must be 'symptom' or 'root_cause'");
      }
      std::string error;
      if (set.set_->Add(r.pattern, &error) < 0) throw Error(where + ": invalid pattern: " + error);
      if (const char* anchor = text_anchor(r.pattern))
        throw Error(where + ": pattern holds to where a text starts or ends ('" + anchor +
                    "'); a rule matches anywhere in a line");
      if (RE2::PartialMatch("", RE2(r.pattern, options)))
        throw Error(where + ": pattern matches an empty text, so it would fire on every issue");
      set.rules_.push_back(r);
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error("rules " + origin + ": " + e.what());
  }
  if (!set.set_->Compile())
    throw Error("rules " + origin + ": the patterns are too large to compile together");
  return set;
}

const RuleSet& RuleSet::builtin() {
  static const RuleSet set = from_json_text(taxonomy::builtin_rules_json(), "taxonomy/rules.json");
  return set;
}

std::vector<int> RuleSet::fired(std::string_view text) const {
  std::vector<int> hits;
  RE2::Set::ErrorInfo error;
  // Without a match Match says false and kNoError; its DFA running out of memory must not pass for "none".
  if (!set_->Match(re2::StringPiece(text.data(), text.size()), &hits, &error) &&
      error.kind != RE2::Set::kNoError) {
    throw Error("rules: matching failed on a text of " + std::to_string(text.size()) + " bytes (RE2 error " +
                std::to_string(static_cast<int>(error.kind)) + ")");
  }
  std::sort(hits.begin(), hits.end());
  return hits;
}

std::map<std::string, double> RuleSet::scores(const std::vector<int>& fired, const std::string& axis) const {
  std::map<std::string, double> out;
  for (int i : fired) {
    if (rules_[i].axis == axis) out[rules_[i].category] += rules_[i].weight;
  }
  return out;
}

}  // namespace faultline::model
