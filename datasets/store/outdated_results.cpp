#include "datasets/store/outdated_results.hpp"

#include <nlohmann/json.hpp>

namespace faultline::datasets {

namespace {

std::string issues(int64_t n) { return std::to_string(n) + (n == 1 ? " issue" : " issues"); }

}  // namespace

OutdatedResultCounter::OutdatedResultCounter(Database& db) : db_(db) {
  db_.exec(R"sql(
CREATE TEMP TABLE outdated_result_counts (screening INTEGER NOT NULL, predictions INTEGER NOT NULL);
INSERT INTO temp.outdated_result_counts VALUES (0, 0);
CREATE TEMP TRIGGER count_outdated_screening AFTER DELETE ON main.screening
  BEGIN UPDATE outdated_result_counts SET screening = screening + 1; END;
CREATE TEMP TRIGGER count_outdated_predictions AFTER DELETE ON main.predictions
  BEGIN UPDATE outdated_result_counts SET predictions = predictions + 1; END;
)sql");
}

OutdatedResultCounter::~OutdatedResultCounter() {
  try {
    db_.exec(
        "DROP TRIGGER temp.count_outdated_screening; DROP TRIGGER temp.count_outdated_predictions; "
        "DROP TABLE temp.outdated_result_counts;");
  } catch (...) {
    // The connection is closing with them; TEMP objects never outlive it.
  }
}

ResultCounts OutdatedResultCounter::dropped() {
  Statement s = db_.prepare("SELECT screening, predictions FROM temp.outdated_result_counts");
  s.step();
  return {s.integer(0), s.integer(1)};
}

nlohmann::json outdated_json(const ResultCounts& dropped) {
  return {{"screening_outdated", dropped.screening_decisions}, {"predictions_outdated", dropped.predictions}};
}

std::string outdated_lines(const ResultCounts& dropped) {
  std::string text;
  if (dropped.screening_decisions > 0)
    text += issues(dropped.screening_decisions) +
            " changed in what screening reads (state, title, labels or scope decision) and lost the "
            "screening decision: run 'faultline screen'\n";
  if (dropped.predictions > 0)
    text += issues(dropped.predictions) +
            " changed in what the classifier reads (title, text, error lines, environment, discussion or "
            "comments, or the repository's name) and lost the prediction: run 'faultline classify'\n";
  return text;
}

}  // namespace faultline::datasets
