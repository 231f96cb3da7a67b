// SQL for the funnel: screening decisions and named samples.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

struct ScreeningDecision {
  static constexpr const char* kCandidate = "candidate";  // the study labels it
  static constexpr const char* kExcluded = "excluded";
  int64_t issue_id = 0;
  std::string decision;  // kCandidate | kExcluded
  std::string rule;
  bool made_candidate() const { return decision == kCandidate; }
};
void replace_screening(Database& db, const std::vector<ScreeningDecision>& decisions);
// replace_screening one decision at a time, inside the caller's transaction: clears the table when made,
// then inserts through one prepared statement, so a screen holds no decisions in memory.
class ScreeningWriter {
 public:
  explicit ScreeningWriter(Database& db);
  void add(const ScreeningDecision& d);

 private:
  Statement insert_;
  std::string now_;
};
std::map<int64_t, ScreeningDecision> load_screening(Database& db);
// The decision on one issue; none before the first screen.
std::optional<ScreeningDecision> find_screening(Database& db, int64_t issue_id);

struct SampleEntry {
  int64_t issue_id = 0;
  std::string status;  // sampled | excluded
  std::string origin;  // draw | replacement | census
  std::optional<std::string> reason;
  std::optional<int64_t> replaced_by;
  int64_t seed = 0;
};
void replace_sample(Database& db, const std::string& name, const std::vector<SampleEntry>& entries);
std::vector<SampleEntry> load_sample(Database& db, const std::string& name);
// The names of the samples in the store, sorted.
std::vector<std::string> list_samples(Database& db);
// The sample `requested` names (an error naming the store's samples if there is none such); when empty,
// "main" if the store has it, else its only sample, else none (""); several without "main" is an error.
std::string resolve_sample(Database& db, const std::string& requested);
void exclude_from_sample(Database& db, const std::string& name, int64_t issue_id, const std::string& reason,
                         int64_t replaced_by);
void add_to_sample(Database& db, const std::string& name, const SampleEntry& entry);

}  // namespace faultline::datasets
