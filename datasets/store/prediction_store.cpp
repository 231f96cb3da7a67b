#include "datasets/store/prediction_store.hpp"

#include <nlohmann/json.hpp>

#include "common/clock.hpp"
#include "common/csv.hpp"

namespace faultline::datasets {

namespace {

Statement cleared_table_insert(Database& db) {
  db.exec("DELETE FROM predictions");
  return db.prepare(
      "INSERT INTO predictions(issue_id, model_version, scope, scope_p, symptom, symptom_p, root_cause, "
      "root_cause_p, abstain, rules_fired, symptom_threshold, root_cause_threshold, predicted_at) VALUES "
      "(?,?,?,?,?,?,?,?,?,?,?,?,?)");
}

}  // namespace

PredictionWriter::PredictionWriter(Database& db)
    : insert_(cleared_table_insert(db)), now_(common::utc_now()) {}

void PredictionWriter::add(const Prediction& p) {
  insert_
      .bind_all(p.issue_id, p.model_version, p.scope, p.scope_p, p.symptom, p.symptom_p, p.root_cause,
                p.root_cause_p, p.abstain ? 1 : 0, p.rules_fired, p.symptom_threshold, p.root_cause_threshold,
                now_)
      .run();
}

void replace_predictions(Database& db, const std::vector<Prediction>& predictions) {
  PredictionWriter writer(db);
  for (const auto& p : predictions) writer.add(p);
}

namespace {

// One query and one row reader serve the whole table and a single issue.
constexpr const char* kSelectPredictions =
    "SELECT issue_id, model_version, scope, scope_p, symptom, symptom_p, root_cause, root_cause_p, abstain, "
    "rules_fired, symptom_threshold, root_cause_threshold FROM predictions";

Prediction read_prediction(const Statement& s) {
  return {s.integer(0), s.text(1), s.text(2),         s.real(3), s.text(4),           s.real(5),
          s.text(6),    s.real(7), s.integer(8) != 0, s.text(9), s.optional_real(10), s.optional_real(11)};
}

}  // namespace

std::map<int64_t, Prediction> load_predictions(Database& db) {
  Statement s = db.prepare(kSelectPredictions);
  std::map<int64_t, Prediction> out;
  while (s.step()) out[s.integer(0)] = read_prediction(s);
  return out;
}

std::optional<Prediction> find_prediction(Database& db, int64_t issue_id) {
  Statement s = db.prepare(std::string(kSelectPredictions) + " WHERE issue_id = ?");
  s.bind_all(issue_id);
  if (!s.step()) return std::nullopt;
  return read_prediction(s);
}

size_t write_predictions(Database& db, std::ostream& out, const std::string& format) {
  Statement s = db.prepare(
      "SELECT r.full_name, i.number, p.model_version, p.scope, p.scope_p, p.symptom, p.symptom_p, "
      "p.root_cause, "
      "p.root_cause_p, p.abstain, p.rules_fired, p.symptom_threshold, p.root_cause_threshold, "
      "f.issue_id IS NOT NULL "
      "FROM predictions p JOIN issues i ON i.id = p.issue_id "
      "JOIN repositories r ON r.id = i.repository_id LEFT JOIN final_labels f ON f.issue_id = p.issue_id "
      "ORDER BY r.full_name, i.number");
  if (format == "csv") {
    common::write_csv_row(out, {"repo", "number", "model_version", "scope", "scope_p", "symptom", "symptom_p",
                                "root_cause", "root_cause_p", "abstain", "rules_fired", "symptom_threshold",
                                "root_cause_threshold", "has_final_label"});
  }
  // A threshold as JSON writes it, to the digits that tell it apart (one just above 1 labels nothing and
  // must not read as 1); JSON's null and the CSV's empty cell: not recorded.
  auto threshold = [&](int column) {
    const std::optional<double> t = s.optional_real(column);
    return t ? nlohmann::json(*t) : nlohmann::json();
  };
  auto threshold_cell = [&](int column) { return s.is_null(column) ? "" : threshold(column).dump(); };
  // A probability in the CSV to the same digits, so that one under its threshold never reads as equal.
  auto probability_cell = [&](int column) { return nlohmann::json(s.real(column)).dump(); };
  size_t written = 0;
  for (; s.step(); ++written) {
    if (format == "csv") {
      common::write_csv_row(
          out, {s.text(0), std::to_string(s.integer(1)), s.text(2), s.text(3), probability_cell(4), s.text(5),
                probability_cell(6), s.text(7), probability_cell(8), s.integer(9) ? "1" : "0", s.text(10),
                threshold_cell(11), threshold_cell(12), s.integer(13) ? "1" : "0"});
    } else {
      nlohmann::json j = {{"repo", s.text(0)},
                          {"number", s.integer(1)},
                          {"model_version", s.text(2)},
                          {"scope", s.text(3)},
                          {"scope_p", s.real(4)},
                          {"symptom", s.text(5)},
                          {"symptom_p", s.real(6)},
                          {"root_cause", s.text(7)},
                          {"root_cause_p", s.real(8)},
                          {"abstain", s.integer(9) != 0},
                          {"rules_fired", nlohmann::json::parse(s.text(10))},
                          {"symptom_threshold", threshold(11)},
                          {"root_cause_threshold", threshold(12)},
                          {"has_final_label", s.integer(13) != 0}};
      out << j.dump() << '\n';
    }
  }
  return written;
}

}  // namespace faultline::datasets
