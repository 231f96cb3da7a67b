#include "taxonomy/taxonomy.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "common/error.hpp"
#include "common/repository_name.hpp"
#include "common/strict_json.hpp"
#include "taxonomy/builtin_data.hpp"

namespace faultline::taxonomy {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& origin, const std::string& problem) {
  throw Error("taxonomy " + origin + ": " + problem);
}

std::vector<std::string> strings(const json& node, const char* key) {
  std::vector<std::string> out;
  if (node.contains(key)) {
    for (const auto& item : node.at(key)) out.push_back(item.get<std::string>());
  }
  return out;
}

Category parse_category(const json& node) {
  Category c;
  c.id = node.at("id").get<std::string>();
  c.name = node.at("name").get<std::string>();
  c.definition = node.at("definition").get<std::string>();
  c.includes = strings(node, "includes");
  c.excludes = strings(node, "excludes");
  c.decision_rules = strings(node, "decision_rules");
  c.study_count = node.at("study_count").get<int>();
  if (node.contains("study_count_by_repo")) {
    c.study_count_by_repo = node.at("study_count_by_repo").get<std::map<std::string, int>>();
  }
  return c;
}

json category_json(const Category& c) {
  json j = {{"id", c.id},
            {"name", c.name},
            {"definition", c.definition},
            {"includes", c.includes},
            {"excludes", c.excludes},
            {"decision_rules", c.decision_rules},
            {"study_count", c.study_count}};
  if (!c.dimension.empty()) j["dimension"] = c.dimension;
  if (!c.study_count_by_repo.empty()) j["study_count_by_repo"] = c.study_count_by_repo;
  return j;
}

Study parse_study(const json& node) {
  Study study;
  study.reference = node.at("reference").get<std::string>();
  study.total = node.at("total").get<int>();
  study.kappa = node.at("kappa").get<double>();
  for (const auto& r : node.at("repositories")) {
    study.repositories.push_back({r.at("id").get<std::string>(), r.at("name").get<std::string>(),
                                  r.at("raw").get<int>(), r.at("candidate").get<int>(),
                                  r.at("final").get<int>()});
  }
  return study;
}

// Appends the dimension's root causes to `root_causes`, each stamped with the dimension's id.
Dimension parse_dimension(const json& node, std::vector<Category>& root_causes) {
  Dimension dim;
  dim.id = node.at("id").get<std::string>();
  dim.name = node.at("name").get<std::string>();
  dim.definition = node.at("definition").get<std::string>();
  dim.study_subtotal = node.at("study_subtotal").get<int>();
  for (const auto& rc : node.at("root_causes")) {
    Category c = parse_category(rc);
    c.dimension = dim.id;
    dim.root_causes.push_back(c.id);
    root_causes.push_back(c);
  }
  return dim;
}

// The miner asks GitHub for these names, so a typo must fail here rather than as an HTTP 404.
void check_repository_names(const Taxonomy& t, const std::string& origin) {
  for (const auto& r : t.study().repositories) common::require_repository_name(r.id, "taxonomy " + origin);
}

void check_unique_ids(const Taxonomy& t, const std::string& origin) {
  std::set<std::string> seen;
  for (const auto& c : t.symptoms()) {
    if (!seen.insert(c.id).second) fail(origin, "duplicate category id '" + c.id + "'");
  }
  for (const auto& c : t.root_causes()) {
    if (!seen.insert(c.id).second) {
      fail(origin,
           "duplicate category id '" + c.id + "' (a root cause must belong to exactly one dimension)");
    }
  }
  for (const auto& d : t.dimensions()) {
    if (!seen.insert(d.id).second) fail(origin, "duplicate id '" + d.id + "'");
    if (d.root_causes.empty()) fail(origin, "dimension '" + d.id + "' has no root causes");
  }
}

void check_symptom_counts(const Taxonomy& t, const std::string& origin) {
  int symptom_total = 0;
  for (const auto& c : t.symptoms()) symptom_total += c.study_count;
  if (symptom_total != t.study().total) {
    fail(origin, "symptom study counts sum to " + std::to_string(symptom_total) +
                     ", expected the study total " + std::to_string(t.study().total));
  }
}

void check_root_cause_counts(const Taxonomy& t, const std::string& origin) {
  int root_total = 0;
  for (const auto& d : t.dimensions()) {
    int subtotal = 0;
    for (const auto& id : d.root_causes) subtotal += t.root_cause(id).study_count;
    if (subtotal != d.study_subtotal) {
      fail(origin, "root causes of dimension '" + d.id + "' sum to " + std::to_string(subtotal) +
                       ", but its study_subtotal is " + std::to_string(d.study_subtotal));
    }
    root_total += subtotal;
  }
  if (root_total != t.study().total) {
    fail(origin, "root-cause study counts sum to " + std::to_string(root_total) +
                     ", expected the study total " + std::to_string(t.study().total));
  }
}

// Table I of the study: per repository, the symptoms' counts must add up to its final count.
void check_repository_counts(const Taxonomy& t, const std::string& origin) {
  std::map<std::string, int> by_repo_total;
  for (const auto& c : t.symptoms()) {
    for (const auto& [repo, n] : c.study_count_by_repo) by_repo_total[repo] += n;
  }
  int final_total = 0;
  for (const auto& r : t.study().repositories) {
    final_total += r.final_count;
    if (by_repo_total.count(r.id) && by_repo_total[r.id] != r.final_count) {
      fail(origin, "symptom counts of repository '" + r.id + "' sum to " +
                       std::to_string(by_repo_total[r.id]) + ", but its final count is " +
                       std::to_string(r.final_count));
    }
  }
  if (final_total != t.study().total) {
    fail(origin, "repository final counts sum to " + std::to_string(final_total) +
                     ", expected the study total " + std::to_string(t.study().total));
  }
}

}  // namespace

Taxonomy Taxonomy::from_json_text(const std::string& text, const std::string& origin) {
  json doc = common::parse_json_strictly(text, "taxonomy " + origin);
  Taxonomy t;
  try {
    t.study_ = parse_study(doc.at("study"));
    for (const auto& s : doc.at("symptoms")) t.symptoms_.push_back(parse_category(s));
    for (const auto& d : doc.at("dimensions")) t.dimensions_.push_back(parse_dimension(d, t.root_causes_));
  } catch (const json::exception& e) {
    fail(origin, std::string("missing or mistyped field: ") + e.what());
  }
  check_repository_names(t, origin);
  check_unique_ids(t, origin);
  // Nesting root causes inside dimensions makes "exactly one dimension" structural: a top-level list
  // would hold orphans, and an id under two dimensions is caught as a duplicate above.
  if (doc.contains("root_causes")) {
    fail(origin, "orphan root causes: a top-level 'root_causes' list is outside every dimension");
  }
  check_symptom_counts(t, origin);
  check_root_cause_counts(t, origin);
  check_repository_counts(t, origin);
  return t;
}

const Taxonomy& Taxonomy::builtin() {
  static const Taxonomy instance =
      from_json_text(builtin_taxonomy_json(), "taxonomy/taxonomy.json (built in)");
  return instance;
}

bool Taxonomy::is_symptom(const std::string& id) const {
  for (const auto& c : symptoms_) {
    if (c.id == id) return true;
  }
  return false;
}

bool Taxonomy::is_root_cause(const std::string& id) const {
  for (const auto& c : root_causes_) {
    if (c.id == id) return true;
  }
  return false;
}

const Category& Taxonomy::symptom(const std::string& id) const {
  for (const auto& c : symptoms_) {
    if (c.id == id) return c;
  }
  throw Error("unknown symptom '" + id + "'");
}

const Category& Taxonomy::root_cause(const std::string& id) const {
  for (const auto& c : root_causes_) {
    if (c.id == id) return c;
  }
  throw Error("unknown root cause '" + id + "'");
}

std::vector<std::string> Taxonomy::symptom_ids() const {
  std::vector<std::string> ids;
  for (const auto& c : symptoms_) ids.push_back(c.id);
  return ids;
}

std::vector<std::string> Taxonomy::root_cause_ids() const {
  std::vector<std::string> ids;
  for (const auto& c : root_causes_) ids.push_back(c.id);
  return ids;
}

const StudyRepository* Taxonomy::study_repository(const std::string& id) const {
  for (const auto& r : study_.repositories) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

nlohmann::json Taxonomy::to_json() const {
  json j;
  j["symptoms"] = json::array();
  for (const auto& c : symptoms_) j["symptoms"].push_back(category_json(c));
  j["dimensions"] = json::array();
  for (const auto& d : dimensions_) {
    json dj = {
        {"id", d.id}, {"name", d.name}, {"definition", d.definition}, {"study_subtotal", d.study_subtotal}};
    dj["root_causes"] = json::array();
    for (const auto& id : d.root_causes) dj["root_causes"].push_back(category_json(root_cause(id)));
    j["dimensions"].push_back(dj);
  }
  j["study"] = {{"reference", study_.reference}, {"total", study_.total}, {"kappa", study_.kappa}};
  return j;
}

}  // namespace faultline::taxonomy
