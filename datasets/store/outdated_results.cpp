#include "datasets/store/outdated_results.hpp"

#include <nlohmann/json.hpp>

namespace faultline::datasets {

namespace {

int64_t count_rows(Database& db, const char* sql) {
  Statement s = db.prepare(sql);
  s.step();
  return s.integer(0);
}

std::string issues(int64_t n) { return std::to_string(n) + (n == 1 ? " issue" : " issues"); }

}  // namespace

ResultCounts count_results(Database& db) {
  return {count_rows(db, "SELECT COUNT(*) FROM screening"),
          count_rows(db, "SELECT COUNT(*) FROM predictions")};
}

ResultCounts dropped_between(const ResultCounts& before, const ResultCounts& after) {
  return {before.screening_decisions - after.screening_decisions, before.predictions - after.predictions};
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
            " changed in what the classifier reads (title, text, error lines, environment or discussion) "
            "and lost the prediction: run 'faultline classify'\n";
  return text;
}

}  // namespace faultline::datasets
