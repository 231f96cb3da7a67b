// The taxonomy of symptoms and root causes, loaded from taxonomy.json and validated on load.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace faultline::taxonomy {

struct Category {
  std::string id;
  std::string name;
  std::string definition;
  std::vector<std::string> includes;
  std::vector<std::string> excludes;
  std::vector<std::string> decision_rules;
  int study_count = 0;
  std::string dimension;                           // root causes only
  std::map<std::string, int> study_count_by_repo;  // symptoms only
};

struct Dimension {
  std::string id;
  std::string name;
  std::string definition;
  int study_subtotal = 0;
  std::vector<std::string> root_causes;
};

struct StudyRepository {
  std::string id;  // owner/name
  std::string name;
  int raw = 0;
  int candidate = 0;
  int final_count = 0;
};

struct Study {
  std::string reference;
  int total = 0;
  double kappa = 0;
  std::vector<StudyRepository> repositories;
};

class Taxonomy {
 public:
  // Parses and validates; throws faultline::Error naming the file and the problem.
  static Taxonomy from_json_text(const std::string& text, const std::string& origin);
  // The taxonomy compiled into the binary (a copy of taxonomy/taxonomy.json).
  static const Taxonomy& builtin();

  const std::vector<Category>& symptoms() const { return symptoms_; }
  const std::vector<Category>& root_causes() const { return root_causes_; }
  const std::vector<Dimension>& dimensions() const { return dimensions_; }
  const Study& study() const { return study_; }

  bool is_symptom(const std::string& id) const;
  bool is_root_cause(const std::string& id) const;
  const Category& symptom(const std::string& id) const;
  const Category& root_cause(const std::string& id) const;
  std::vector<std::string> symptom_ids() const;
  std::vector<std::string> root_cause_ids() const;
  const StudyRepository* study_repository(const std::string& id) const;

  nlohmann::json to_json() const;

 private:
  std::vector<Category> symptoms_;
  std::vector<Category> root_causes_;
  std::vector<Dimension> dimensions_;
  Study study_;
};

}  // namespace faultline::taxonomy
