#include "datasets/store/funnel_store.hpp"

#include <algorithm>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/joined.hpp"

namespace faultline::datasets {

namespace {

// The table emptied, then its insert prepared once: the writer's first act.
Statement cleared_screening_insert(Database& db) {
  db.exec("DELETE FROM screening");
  return db.prepare("INSERT INTO screening(issue_id, decision, rule, screened_at) VALUES (?,?,?,?)");
}

}  // namespace

ScreeningWriter::ScreeningWriter(Database& db)
    : insert_(cleared_screening_insert(db)), now_(common::utc_now()) {}

void ScreeningWriter::add(const ScreeningDecision& d) {
  insert_.bind_all(d.issue_id, d.decision, d.rule, now_).run();
}

void replace_screening(Database& db, const std::vector<ScreeningDecision>& decisions) {
  ScreeningWriter writer(db);
  for (const auto& d : decisions) writer.add(d);
}

std::map<int64_t, ScreeningDecision> load_screening(Database& db) {
  Statement s = db.prepare("SELECT issue_id, decision, rule FROM screening");
  std::map<int64_t, ScreeningDecision> out;
  while (s.step()) out[s.integer(0)] = {s.integer(0), s.text(1), s.text(2)};
  return out;
}

std::optional<ScreeningDecision> find_screening(Database& db, int64_t issue_id) {
  Statement s = db.prepare("SELECT issue_id, decision, rule FROM screening WHERE issue_id = ?");
  s.bind_all(issue_id);
  if (!s.step()) return std::nullopt;
  return ScreeningDecision{s.integer(0), s.text(1), s.text(2)};
}

void add_to_sample(Database& db, const std::string& name, const SampleEntry& e) {
  db.prepare(
        "INSERT INTO samples(name, issue_id, status, origin, reason, replaced_by, seed) VALUES "
        "(?,?,?,?,?,?,?)")
      .bind_all(name, e.issue_id, e.status, e.origin, e.reason, std::optional<std::string>{}, e.seed)
      .run();
}

void replace_sample(Database& db, const std::string& name, const std::vector<SampleEntry>& entries) {
  db.prepare("DELETE FROM samples WHERE name = ?").bind_all(name).run();
  for (const auto& e : entries) add_to_sample(db, name, e);
}

std::vector<SampleEntry> load_sample(Database& db, const std::string& name) {
  Statement s = db.prepare(
      "SELECT issue_id, status, origin, reason, replaced_by, seed FROM samples WHERE name = ? ORDER BY "
      "issue_id");
  s.bind_all(name);
  std::vector<SampleEntry> out;
  while (s.step()) {
    SampleEntry e{s.integer(0), s.text(1), s.text(2), std::nullopt, std::nullopt, s.integer(5)};
    if (!s.is_null(3)) e.reason = s.text(3);
    if (!s.is_null(4)) e.replaced_by = s.integer(4);
    out.push_back(e);
  }
  return out;
}

std::vector<std::string> list_samples(Database& db) {
  Statement s = db.prepare("SELECT DISTINCT name FROM samples ORDER BY name");
  std::vector<std::string> out;
  while (s.step()) out.push_back(s.text(0));
  return out;
}

std::string resolve_sample(Database& db, const std::string& requested) {
  const auto names = list_samples(db);
  const auto named = [&] { return names.empty() ? std::string("none") : common::joined(names); };
  if (!requested.empty()) {
    if (std::find(names.begin(), names.end(), requested) == names.end())
      throw Error("no sample named '" + requested + "' in the store (samples: " + named() + ")");
    return requested;
  }
  if (std::find(names.begin(), names.end(), "main") != names.end()) return "main";
  if (names.size() <= 1) return names.empty() ? "" : names.front();
  throw Error("the store holds several samples (" + named() + ") and none is 'main': name one");
}

void exclude_from_sample(Database& db, const std::string& name, int64_t issue_id, const std::string& reason,
                         int64_t replaced_by) {
  db.prepare("UPDATE samples SET status='excluded', reason=?, replaced_by=? WHERE name=? AND issue_id=?")
      .bind_all(reason, replaced_by, name, issue_id)
      .run();
}

}  // namespace faultline::datasets
