// SQL for manual labels: rater batches, adjudications and the final (overriding) labels.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

struct ManualLabel {
  int64_t issue_id = 0;
  std::string rater;
  std::string symptom;
  std::string root_cause;
  std::string note;
  int64_t batch_id = 0;
};

int64_t create_label_batch(Database& db, const std::string& rater, const std::string& source);
// A rater's newer label of an issue replaces the older one.
void put_manual_label(Database& db, const ManualLabel& label);
// Removes `rater`'s labels of every issue not in `kept`; how many went.
int remove_manual_labels_except(Database& db, const std::string& rater, const std::set<int64_t>& kept);
std::vector<ManualLabel> load_manual_labels(Database& db, const std::string& rater);
std::vector<std::string> list_raters(Database& db);

// One rater's label of an issue with where it came from: the batch's source file and import time.
struct RaterLabel {
  ManualLabel label;
  std::string source;
  std::string imported_at;
};
// Every rater's label of one issue, by rater.
std::vector<RaterLabel> load_issue_labels(Database& db, int64_t issue_id);

struct Adjudication {
  int64_t issue_id = 0;
  std::string adjudicator;
  std::string symptom;
  std::string root_cause;
  std::string note;
  std::string source;
};
void put_adjudication(Database& db, const Adjudication& a);
std::map<int64_t, Adjudication> load_adjudications(Database& db);
std::optional<Adjudication> find_adjudication(Database& db, int64_t issue_id);

struct FinalLabel {
  int64_t issue_id = 0;
  std::string symptom;
  std::string root_cause;
  std::string provenance;  // agreed | adjudicated
  std::string raters;
};
// Replaces every final label with `labels`, all stamped with the audit that allowed them.
void replace_final_labels(Database& db, const std::vector<FinalLabel>& labels, int64_t audit_id);
std::map<int64_t, FinalLabel> load_final_labels(Database& db);
std::optional<FinalLabel> find_final_label(Database& db, int64_t issue_id);

// repo,number,rater,symptom,root_cause,note — the label CSV shape — or one JSON object per line; returns
// how many labels it wrote.
size_t write_final_labels(Database& db, std::ostream& out, const std::string& format);

}  // namespace faultline::datasets
