#include "datasets/store/outdated_results.hpp"

#include <nlohmann/json.hpp>

#include "common/counted.hpp"

namespace faultline::datasets {

namespace {

// The issues whose results were dropped, each once (a concurrent screen may decide an issue again, and a
// later page of the same mine drop it again).
const char* const kCreate = R"sql(
CREATE TEMP TABLE outdated_screening (issue_id INTEGER PRIMARY KEY);
CREATE TEMP TABLE outdated_predictions (issue_id INTEGER PRIMARY KEY);
CREATE TEMP TRIGGER count_outdated_screening AFTER DELETE ON main.screening
  BEGIN INSERT OR IGNORE INTO outdated_screening VALUES (OLD.issue_id); END;
CREATE TEMP TRIGGER count_outdated_predictions AFTER DELETE ON main.predictions
  BEGIN INSERT OR IGNORE INTO outdated_predictions VALUES (OLD.issue_id); END;
)sql";
const char* const kDrop = R"sql(
DROP TRIGGER IF EXISTS temp.count_outdated_screening;
DROP TRIGGER IF EXISTS temp.count_outdated_predictions;
DROP TABLE IF EXISTS temp.outdated_screening;
DROP TABLE IF EXISTS temp.outdated_predictions;
)sql";

}  // namespace

OutdatedResultCounter::OutdatedResultCounter(Database& db) : db_(db) {
  try {
    db_.exec(kCreate);
  } catch (...) {
    db_.exec(kDrop);  // what was made before the failing statement, so that a later counter can start
    throw;
  }
}

OutdatedResultCounter::~OutdatedResultCounter() {
  try {
    db_.exec(kDrop);
  } catch (...) {
    // The connection is closing with them; TEMP objects never outlive it.
  }
}

ResultCounts OutdatedResultCounter::dropped() {
  Statement s = db_.prepare(
      "SELECT (SELECT COUNT(*) FROM temp.outdated_screening), (SELECT COUNT(*) FROM "
      "temp.outdated_predictions)");
  s.step();
  return {s.integer(0), s.integer(1)};
}

nlohmann::json outdated_json(const ResultCounts& dropped) {
  return {{"screening_outdated", dropped.screening_decisions}, {"predictions_outdated", dropped.predictions}};
}

std::string outdated_lines(const ResultCounts& dropped) {
  std::string text;
  if (dropped.screening_decisions > 0)
    text += common::counted(dropped.screening_decisions, "issue") +
            " changed in what screening reads (state, title, labels or scope decision) and lost the "
            "screening decision: run 'faultline screen'\n";
  if (dropped.predictions > 0)
    text += common::counted(dropped.predictions, "issue") +
            " changed in what the classifier reads (title, text, error lines, environment, discussion or "
            "comments, or the repository's name) and lost the prediction: run 'faultline classify'\n";
  return text;
}

}  // namespace faultline::datasets
