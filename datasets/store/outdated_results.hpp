// Screening decisions and predictions hold for an issue as they read it: the store drops them when a write
// changes what they read (migration 13). A counter says how many one command's writes dropped (a mine, an
// import), so that the command can say what to run again.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

struct ResultCounts {
  int64_t screening_decisions = 0;
  int64_t predictions = 0;
};

// Counts the issues whose rows of `screening` and `predictions` were deleted through `db` while it lives, by
// TEMP triggers, which fire for this connection's writes alone: another process screening or classifying
// meanwhile is not counted. A count made inside a transaction that rolls back is rolled back with it. One at
// a time per connection, and not around a screen or a classify, whose own deletions it would count.
class OutdatedResultCounter {
 public:
  explicit OutdatedResultCounter(Database& db);
  ~OutdatedResultCounter();
  OutdatedResultCounter(const OutdatedResultCounter&) = delete;
  OutdatedResultCounter& operator=(const OutdatedResultCounter&) = delete;
  ResultCounts dropped();

 private:
  Database& db_;
};

// `screening_outdated` and `predictions_outdated`, for a command's --json summary.
nlohmann::json outdated_json(const ResultCounts& dropped);
// A line for each kind dropped, naming the command that makes them again; empty when none was.
std::string outdated_lines(const ResultCounts& dropped);

}  // namespace faultline::datasets
