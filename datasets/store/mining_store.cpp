#include "datasets/store/mining_store.hpp"

#include "datasets/store/issue_store.hpp"
#include "common/error.hpp"

namespace faultline::datasets {

std::optional<Validator> load_validator(Database& db, const std::string& url) {
  Statement s = db.prepare("SELECT etag, last_modified FROM http_cache WHERE url = ?");
  s.bind_all(url);
  if (!s.step()) return std::nullopt;
  return Validator{s.text(0), s.text(1)};
}

void save_validator(Database& db, const std::string& url, const Validator& v) {
  db.prepare("INSERT OR REPLACE INTO http_cache(url, etag, last_modified) VALUES (?,?,?)")
      .bind_all(url, v.etag, v.last_modified)
      .run();
}

std::optional<std::string> load_cursor(Database& db, int64_t repository_id, const std::string& listing) {
  Statement s = db.prepare("SELECT next_url FROM mine_cursors WHERE repository_id = ? AND listing = ?");
  s.bind_all(repository_id, listing);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

void save_cursor(Database& db, int64_t repository_id, const std::string& listing,
                 const std::string& next_url) {
  db.prepare("INSERT OR REPLACE INTO mine_cursors(repository_id, listing, next_url) VALUES (?,?,?)")
      .bind_all(repository_id, listing, next_url)
      .run();
}

void clear_cursor(Database& db, int64_t repository_id, const std::string& listing) {
  db.prepare("DELETE FROM mine_cursors WHERE repository_id = ? AND listing = ?")
      .bind_all(repository_id, listing)
      .run();
}

std::optional<std::string> load_high_water(Database& db, int64_t repository_id, const std::string& listing) {
  Statement s = db.prepare(listing == "issues" ? "SELECT high_water_issues FROM repositories WHERE id = ?"
                                               : "SELECT high_water_comments FROM repositories WHERE id = ?");
  s.bind_all(repository_id);
  if (!s.step() || s.is_null(0)) return std::nullopt;
  return s.text(0);
}

void raise_high_water(Database& db, int64_t repository_id, const std::string& listing,
                      const std::string& updated) {
  // ISO 8601 UTC timestamps of one format compare correctly as text.
  db.prepare(listing == "issues" ? "UPDATE repositories SET high_water_issues = ? WHERE id = ? AND "
                                   "(high_water_issues IS NULL OR high_water_issues < ?)"
                                 : "UPDATE repositories SET high_water_comments = ? WHERE id = ? AND "
                                   "(high_water_comments IS NULL OR high_water_comments < ?)")
      .bind_all(updated, repository_id, updated)
      .run();
}

void rename_repository(Database& db, const std::string& old_name, const std::string& new_name) {
  if (old_name == new_name) return;
  if (find_repository(db, new_name)) {
    throw Error("repository " + old_name + " was renamed to " + new_name +
                ", which is already in the store separately");
  }
  db.prepare("UPDATE repositories SET full_name = ?, previous_name = ? WHERE full_name = ?")
      .bind_all(new_name, old_name, old_name)
      .run();
}

void replace_timeline(Database& db, int64_t issue_id,
                      const std::vector<std::pair<std::string, std::string>>& events,
                      const std::vector<std::string>& raw) {
  db.prepare("DELETE FROM timeline_events WHERE issue_id = ?").bind_all(issue_id).run();
  Statement insert = db.prepare(
      "INSERT INTO timeline_events(issue_id, position, event, reference, raw_json) VALUES (?,?,?,?,?)");
  for (size_t i = 0; i < events.size(); ++i) {
    insert.bind_all(issue_id, static_cast<int64_t>(i), events[i].first, events[i].second, raw[i]);
    insert.run();
  }
}

}  // namespace faultline::datasets
