// SQL for the miner's own state: HTTP validators, resume cursors, high-water marks, renames, completeness
// checks, timelines.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

struct Validator {
  std::string etag;
  std::string last_modified;
};
// An answer without ETag and Last-Modified has no validator: none is kept for its URL (a request without
// one is not conditional, and a 304 to it is no answer).
std::optional<Validator> load_validator(Database& db, const std::string& url);
void save_validator(Database& db, const std::string& url, const Validator& v);
// Deletes the validators whose URL starts with `prefix`, but for `kept_url`'s.
void forget_validators_under(Database& db, const std::string& prefix, const std::string& kept_url);
// Re-keys every validator whose URL starts with `old_prefix` (a renamed repository's URLs).
void move_validators(Database& db, const std::string& old_prefix, const std::string& new_prefix);

// Where an unfinished listing ("issues" or "comments") goes on, so a killed mine resumes there: the next
// page's URL, the pass over the listing or the walk after it that the page is of, and when that began.
struct Cursor {
  std::string next_url;
  std::string started;     // GitHub's time when the pass or walk began; empty from an earlier faultline
  int walk = 0;            // 0: the pass itself; then the walks after it
  std::string walk_start;  // the URL the pass or walk began at; empty from an earlier faultline
  // Within one second's entries paged by GitHub's page numbers (RepositoryMiner::SameSecondGroup): which
  // reading of them it is (0: not within such a second) and how many entries that reading has stored.
  int group_reading = 0;
  int64_t group_stored = 0;
};
std::optional<Cursor> load_cursor(Database& db, int64_t repository_id, const std::string& listing);
void save_cursor(Database& db, int64_t repository_id, const std::string& listing, const Cursor& cursor);
void clear_cursor(Database& db, int64_t repository_id, const std::string& listing);
// Re-keys the cursors whose URLs start with `old_prefix` (a renamed repository's), as move_validators does.
void move_cursors(Database& db, const std::string& old_prefix, const std::string& new_prefix);

// The largest updated_at stored for a listing; refreshes ask for what changed after it.
std::optional<std::string> load_high_water(Database& db, int64_t repository_id, const std::string& listing);
void raise_high_water(Database& db, int64_t repository_id, const std::string& listing,
                      const std::string& updated);

// Records that `old_name` is now called `new_name`: the stored repository (if any) keeps its issues under
// the new name, and the old name stays an alias of it. Throws when both names are stored separately. Names
// that differ only in case are one name (GitHub's are): the row takes the new spelling, without an alias.
void rename_repository(Database& db, const std::string& old_name, const std::string& new_name);
// The stored name of the repository known under `name` (itself, or the repository it was renamed to).
std::optional<std::string> current_repository_name(Database& db, const std::string& name);
// GitHub's repository id, which survives renames.
std::optional<std::string> repository_with_github_id(Database& db, int64_t github_id);
// The GitHub id recorded for a stored repository; nullopt before its first mine (imported from a snapshot).
std::optional<int64_t> github_id_of(Database& db, int64_t repository_id);
void set_github_id(Database& db, int64_t repository_id, int64_t github_id);

// Numbers the issue listing showed to be pull requests (not stored as issues).
void record_pull_request(Database& db, int64_t repository_id, int64_t number);
// Whether a listing of the repository showed `number` as a pull request.
bool is_recorded_pull_request(Database& db, int64_t repository_id, int64_t number);
int64_t count_pull_requests(Database& db, int64_t repository_id);
// The highest number the store holds of a repository, as an issue or a pull request; 0 for none.
int64_t highest_stored_number(Database& db, int64_t repository_id);
// A --verify under way: the highest number it has checked (0 before any) and the numbers it found missing
// with why, ascending; cleared when it ends.
int64_t load_verify_progress(Database& db, int64_t repository_id);
void save_verify_progress(Database& db, int64_t repository_id, int64_t checked_through);
void record_verify_missing(Database& db, int64_t repository_id, int64_t number, const std::string& reason);
std::vector<std::pair<int64_t, std::string>> load_verify_missing(Database& db, int64_t repository_id);
void clear_verify_progress(Database& db, int64_t repository_id);
// The numbers 1..highest that are neither a stored issue nor a recorded pull request, ascending.
std::vector<int64_t> unaccounted_numbers(Database& db, int64_t repository_id, int64_t highest);

void replace_timeline(Database& db, int64_t issue_id,
                      const std::vector<std::pair<std::string, std::string>>& events,
                      const std::vector<std::string>& raw);

}  // namespace faultline::datasets
