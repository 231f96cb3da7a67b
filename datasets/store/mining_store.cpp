#include "datasets/store/mining_store.hpp"

#include "common/error.hpp"
#include "common/repository_name.hpp"
#include "datasets/store/issue_store.hpp"

namespace faultline::datasets {

std::optional<Validator> load_validator(Database& db, const std::string& url) {
  Statement s = db.prepare(
      "SELECT etag, last_modified FROM http_cache WHERE url = ? AND (etag != '' OR last_modified != '')");
  s.bind_all(url);
  if (!s.step()) return std::nullopt;
  return Validator{s.text(0), s.text(1)};
}

void save_validator(Database& db, const std::string& url, const Validator& v) {
  if (v.etag.empty() && v.last_modified.empty()) {
    db.prepare("DELETE FROM http_cache WHERE url = ?").bind_all(url).run();
    return;
  }
  db.prepare("INSERT OR REPLACE INTO http_cache(url, etag, last_modified) VALUES (?,?,?)")
      .bind_all(url, v.etag, v.last_modified)
      .run();
}

void forget_validators_under(Database& db, const std::string& prefix, const std::string& kept_url) {
  db.prepare("DELETE FROM http_cache WHERE substr(url, 1, ?) = ? AND url != ?")
      .bind_all(static_cast<int64_t>(prefix.size()), prefix, kept_url)
      .run();
}

void move_validators(Database& db, const std::string& old_prefix, const std::string& new_prefix) {
  db.prepare("UPDATE OR REPLACE http_cache SET url = ? || substr(url, ?) WHERE substr(url, 1, ?) = ?")
      .bind_all(new_prefix, static_cast<int64_t>(old_prefix.size() + 1),
                static_cast<int64_t>(old_prefix.size()), old_prefix)
      .run();
}

std::optional<Cursor> load_cursor(Database& db, int64_t repository_id, const std::string& listing) {
  Statement s = db.prepare(
      "SELECT next_url, pass_started, walk, walk_start, group_reading, group_stored FROM mine_cursors "
      "WHERE repository_id = ? AND listing = ?");
  s.bind_all(repository_id, listing);
  if (!s.step()) return std::nullopt;
  return Cursor{
      s.text(0),   s.text(1), static_cast<int>(s.integer(2)), s.text(3), static_cast<int>(s.integer(4)),
      s.integer(5)};
}

void save_cursor(Database& db, int64_t repository_id, const std::string& listing, const Cursor& cursor) {
  db.prepare(
        "INSERT OR REPLACE INTO mine_cursors(repository_id, listing, next_url, pass_started, walk, "
        "walk_start, group_reading, group_stored) VALUES (?,?,?,?,?,?,?,?)")
      .bind_all(repository_id, listing, cursor.next_url, cursor.started, cursor.walk, cursor.walk_start,
                cursor.group_reading, cursor.group_stored)
      .run();
}

void move_cursors(Database& db, const std::string& old_prefix, const std::string& new_prefix) {
  const auto size = static_cast<int64_t>(old_prefix.size());
  for (const char* column : {"next_url", "walk_start"}) {
    const std::string c = column;
    db.prepare("UPDATE mine_cursors SET " + c + " = ? || substr(" + c + ", ?) WHERE substr(" + c +
               ", 1, ?) = ?")
        .bind_all(new_prefix, size + 1, size, old_prefix)
        .run();
  }
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
  auto old_id = find_repository(db, old_name);
  auto new_id = find_repository(db, new_name);
  // Names that differ only in case are one name (every lookup ignores case), so both lookups find the same
  // row, unless a store written before holds one spelling in each of two rows.
  const bool same_name = common::same_repository_name(old_name, new_name);
  if (old_id && new_id && (!same_name || *old_id != *new_id)) {
    throw Error("repository " + old_name + " was renamed to " + new_name +
                ", which is already in the store separately");
  }
  if (old_id) {
    db.prepare("UPDATE repositories SET full_name = ? WHERE id = ?").bind_all(new_name, *old_id).run();
  }
  int64_t id = ensure_repository(db, new_name);
  if (same_name) return;  // GitHub's spelling of the same name: no alias needed
  db.prepare("UPDATE repositories SET previous_name = ? WHERE id = ?").bind_all(old_name, id).run();
  // The old name is now this repository's, in every spelling: the alias table's key is case-sensitive, so
  // an alias of another repository spelled in another case goes first.
  db.prepare("DELETE FROM repository_aliases WHERE name = ? COLLATE NOCASE").bind_all(old_name).run();
  db.prepare("INSERT INTO repository_aliases(name, repository_id) VALUES (?,?)").bind_all(old_name, id).run();
  // The new name may have been an alias of this repository before (a rename back).
  db.prepare("DELETE FROM repository_aliases WHERE name = ? COLLATE NOCASE").bind_all(new_name).run();
}

std::optional<std::string> current_repository_name(Database& db, const std::string& name) {
  const std::optional<int64_t> id = find_known_repository(db, name);
  if (!id) return std::nullopt;
  Statement s = db.prepare("SELECT full_name FROM repositories WHERE id = ?");
  s.bind_all(*id);
  s.step();
  return s.text(0);
}

std::optional<std::string> repository_with_github_id(Database& db, int64_t github_id) {
  Statement s = db.prepare("SELECT full_name FROM repositories WHERE github_id = ?");
  s.bind_all(github_id);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::optional<int64_t> github_id_of(Database& db, int64_t repository_id) {
  Statement s = db.prepare("SELECT github_id FROM repositories WHERE id = ? AND github_id IS NOT NULL");
  s.bind_all(repository_id);
  if (!s.step()) return std::nullopt;
  return s.integer(0);
}

void set_github_id(Database& db, int64_t repository_id, int64_t github_id) {
  db.prepare("UPDATE repositories SET github_id = ? WHERE id = ?").bind_all(github_id, repository_id).run();
}

void record_pull_request(Database& db, int64_t repository_id, int64_t number) {
  db.prepare("INSERT OR IGNORE INTO listing_pull_requests(repository_id, number) VALUES (?,?)")
      .bind_all(repository_id, number)
      .run();
}

bool is_recorded_pull_request(Database& db, int64_t repository_id, int64_t number) {
  Statement s = db.prepare("SELECT 1 FROM listing_pull_requests WHERE repository_id = ? AND number = ?");
  s.bind_all(repository_id, number);
  return s.step();
}

int64_t count_pull_requests(Database& db, int64_t repository_id) {
  Statement s = db.prepare("SELECT COUNT(*) FROM listing_pull_requests WHERE repository_id = ?");
  s.bind_all(repository_id);
  s.step();
  return s.integer(0);
}

int64_t highest_stored_number(Database& db, int64_t repository_id) {
  Statement s = db.prepare(
      "SELECT MAX(n) FROM (SELECT MAX(number) AS n FROM issues WHERE repository_id = ?1 "
      "UNION ALL SELECT MAX(number) FROM listing_pull_requests WHERE repository_id = ?1)");
  s.bind_all(repository_id);
  s.step();
  return s.is_null(0) ? 0 : s.integer(0);
}

int64_t load_verify_progress(Database& db, int64_t repository_id) {
  Statement s = db.prepare("SELECT checked_through FROM verify_progress WHERE repository_id = ?");
  s.bind_all(repository_id);
  return s.step() ? s.integer(0) : 0;
}

void save_verify_progress(Database& db, int64_t repository_id, int64_t checked_through) {
  db.prepare("INSERT OR REPLACE INTO verify_progress(repository_id, checked_through) VALUES (?,?)")
      .bind_all(repository_id, checked_through)
      .run();
}

void record_verify_missing(Database& db, int64_t repository_id, int64_t number, const std::string& reason) {
  db.prepare("INSERT OR REPLACE INTO verify_missing(repository_id, number, reason) VALUES (?,?,?)")
      .bind_all(repository_id, number, reason)
      .run();
}

std::vector<std::pair<int64_t, std::string>> load_verify_missing(Database& db, int64_t repository_id) {
  Statement s =
      db.prepare("SELECT number, reason FROM verify_missing WHERE repository_id = ? ORDER BY number");
  s.bind_all(repository_id);
  std::vector<std::pair<int64_t, std::string>> out;
  while (s.step()) out.push_back({s.integer(0), s.text(1)});
  return out;
}

void clear_verify_progress(Database& db, int64_t repository_id) {
  db.prepare("DELETE FROM verify_progress WHERE repository_id = ?").bind_all(repository_id).run();
  db.prepare("DELETE FROM verify_missing WHERE repository_id = ?").bind_all(repository_id).run();
}

std::vector<int64_t> unaccounted_numbers(Database& db, int64_t repository_id, int64_t highest) {
  Statement s = db.prepare(
      "WITH RECURSIVE n(x) AS (SELECT 1 WHERE ? >= 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?) "
      "SELECT x FROM n WHERE x NOT IN (SELECT number FROM issues WHERE repository_id = ?) "
      "AND x NOT IN (SELECT number FROM listing_pull_requests WHERE repository_id = ?) ORDER BY x");
  s.bind_all(highest, highest, repository_id, repository_id);
  std::vector<int64_t> numbers;
  while (s.step()) numbers.push_back(s.integer(0));
  return numbers;
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
