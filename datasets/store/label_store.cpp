#include "datasets/store/label_store.hpp"

#include <nlohmann/json.hpp>

#include "common/clock.hpp"
#include "common/csv.hpp"

namespace faultline::datasets {

int64_t create_label_batch(Database& db, const std::string& rater, const std::string& source) {
  db.prepare("INSERT INTO label_batches(rater, source, imported_at) VALUES (?,?,?)")
      .bind_all(rater, source, common::utc_now())
      .run();
  return db.last_insert_id();
}

void put_manual_label(Database& db, const ManualLabel& l) {
  db.prepare(
        "INSERT INTO manual_labels(batch_id, issue_id, rater, symptom, root_cause, note) VALUES "
        "(?,?,?,?,?,?) "
        "ON CONFLICT(rater, issue_id) DO UPDATE SET batch_id=excluded.batch_id, symptom=excluded.symptom, "
        "root_cause=excluded.root_cause, note=excluded.note")
      .bind_all(l.batch_id, l.issue_id, l.rater, l.symptom, l.root_cause, l.note)
      .run();
}

int remove_manual_labels_except(Database& db, const std::string& rater, const std::set<int64_t>& kept) {
  int removed = 0;
  Statement remove = db.prepare("DELETE FROM manual_labels WHERE rater = ? AND issue_id = ?");
  for (const auto& label : load_manual_labels(db, rater)) {
    if (kept.count(label.issue_id)) continue;
    remove.bind_all(rater, label.issue_id).run();
    ++removed;
  }
  return removed;
}

std::vector<ManualLabel> load_manual_labels(Database& db, const std::string& rater) {
  Statement s = db.prepare(
      "SELECT issue_id, rater, symptom, root_cause, note, batch_id FROM manual_labels WHERE rater = ? "
      "ORDER BY issue_id");
  s.bind_all(rater);
  std::vector<ManualLabel> out;
  while (s.step()) out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.integer(5)});
  return out;
}

std::vector<RaterLabel> load_issue_labels(Database& db, int64_t issue_id) {
  Statement s = db.prepare(
      "SELECT m.issue_id, m.rater, m.symptom, m.root_cause, m.note, m.batch_id, b.source, b.imported_at "
      "FROM manual_labels m JOIN label_batches b ON b.id = m.batch_id WHERE m.issue_id = ? ORDER BY m.rater");
  s.bind_all(issue_id);
  std::vector<RaterLabel> out;
  while (s.step()) {
    out.push_back(
        {{s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.integer(5)}, s.text(6), s.text(7)});
  }
  return out;
}

std::vector<std::string> list_raters(Database& db) {
  Statement s = db.prepare("SELECT DISTINCT rater FROM manual_labels ORDER BY rater");
  std::vector<std::string> out;
  while (s.step()) out.push_back(s.text(0));
  return out;
}

void put_adjudication(Database& db, const Adjudication& a) {
  db.prepare(
        "INSERT INTO adjudications(issue_id, adjudicator, symptom, root_cause, note, source, adjudicated_at) "
        "VALUES (?,?,?,?,?,?,?) ON CONFLICT(issue_id) DO UPDATE SET adjudicator=excluded.adjudicator, "
        "symptom=excluded.symptom, root_cause=excluded.root_cause, note=excluded.note, "
        "source=excluded.source, "
        "adjudicated_at=excluded.adjudicated_at")
      .bind_all(a.issue_id, a.adjudicator, a.symptom, a.root_cause, a.note, a.source, common::utc_now())
      .run();
}

namespace {

// One query and one row reader serve the whole table and a single issue.
constexpr const char* kSelectAdjudications =
    "SELECT issue_id, adjudicator, symptom, root_cause, note, source FROM adjudications";

Adjudication read_adjudication(const Statement& s) {
  return {s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)};
}

}  // namespace

std::map<int64_t, Adjudication> load_adjudications(Database& db) {
  Statement s = db.prepare(kSelectAdjudications);
  std::map<int64_t, Adjudication> out;
  while (s.step()) out[s.integer(0)] = read_adjudication(s);
  return out;
}

std::optional<Adjudication> find_adjudication(Database& db, int64_t issue_id) {
  Statement s = db.prepare(std::string(kSelectAdjudications) + " WHERE issue_id = ?");
  s.bind_all(issue_id);
  if (!s.step()) return std::nullopt;
  return read_adjudication(s);
}

void replace_final_labels(Database& db, const std::vector<FinalLabel>& labels, int64_t audit_id) {
  db.exec("DELETE FROM final_labels");
  Statement insert = db.prepare(
      "INSERT INTO final_labels(issue_id, symptom, root_cause, provenance, raters, audit_id, decided_at) "
      "VALUES (?,?,?,?,?,?,?)");
  std::string now = common::utc_now();
  for (const auto& l : labels) {
    insert.bind_all(l.issue_id, l.symptom, l.root_cause, l.provenance, l.raters, audit_id, now);
    insert.run();
  }
}

std::map<int64_t, FinalLabel> load_final_labels(Database& db) {
  Statement s = db.prepare("SELECT issue_id, symptom, root_cause, provenance, raters FROM final_labels");
  std::map<int64_t, FinalLabel> out;
  while (s.step()) out[s.integer(0)] = {s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4)};
  return out;
}

std::optional<FinalLabel> find_final_label(Database& db, int64_t issue_id) {
  Statement s = db.prepare(
      "SELECT issue_id, symptom, root_cause, provenance, raters FROM final_labels WHERE issue_id = ?");
  s.bind_all(issue_id);
  if (!s.step()) return std::nullopt;
  return FinalLabel{s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4)};
}

size_t write_final_labels(Database& db, std::ostream& out, const std::string& format) {
  Statement s = db.prepare(
      "SELECT r.full_name, i.number, f.provenance, f.symptom, f.root_cause, f.raters FROM final_labels f "
      "JOIN issues i ON i.id = f.issue_id JOIN repositories r ON r.id = i.repository_id "
      "ORDER BY r.full_name, i.number");
  if (format == "csv")
    common::write_csv_row(out, {"repo", "number", "rater", "symptom", "root_cause", "note"});
  size_t written = 0;
  for (; s.step(); ++written) {
    if (format == "csv") {
      common::write_csv_row(out, {s.text(0), std::to_string(s.integer(1)), s.text(2), s.text(3), s.text(4),
                                  "raters: " + s.text(5)});
    } else {
      nlohmann::json j = {{"repo", s.text(0)},    {"number", s.integer(1)},  {"provenance", s.text(2)},
                          {"symptom", s.text(3)}, {"root_cause", s.text(4)}, {"raters", s.text(5)}};
      out << j.dump() << '\n';
    }
  }
  return written;
}

}  // namespace faultline::datasets
