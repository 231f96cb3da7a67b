// SQL for the miner's own state: HTTP validators, resume cursors, high-water marks, renames, timelines.
#pragma once

#include <optional>
#include <string>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

struct Validator {
  std::string etag;
  std::string last_modified;
};
std::optional<Validator> load_validator(Database& db, const std::string& url);
void save_validator(Database& db, const std::string& url, const Validator& v);

// The next page URL of an unfinished listing ("issues" or "comments"), so a killed mine resumes there.
std::optional<std::string> load_cursor(Database& db, int64_t repository_id, const std::string& listing);
void save_cursor(Database& db, int64_t repository_id, const std::string& listing,
                 const std::string& next_url);
void clear_cursor(Database& db, int64_t repository_id, const std::string& listing);

// The largest updated_at stored for a listing; refreshes ask for what changed after it.
std::optional<std::string> load_high_water(Database& db, int64_t repository_id, const std::string& listing);
void raise_high_water(Database& db, int64_t repository_id, const std::string& listing,
                      const std::string& updated);

// Records that `old_name` is now called `new_name` (keeping its issues).
void rename_repository(Database& db, const std::string& old_name, const std::string& new_name);

void replace_timeline(Database& db, int64_t issue_id,
                      const std::vector<std::pair<std::string, std::string>>& events,
                      const std::vector<std::string>& raw);

}  // namespace faultline::datasets
