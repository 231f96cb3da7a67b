#include "miner/miner.hpp"

#include <nlohmann/json.hpp>

#include "common/clock.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "common/json_fields.hpp"
#include "datasets/store/mining_store.hpp"
#include "common/error.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::miner {

const std::vector<std::string>& study_repositories() {
  static const std::vector<std::string> repos = [] {
    std::vector<std::string> ids;
    for (const auto& r : taxonomy::Taxonomy::builtin().study().repositories) ids.push_back(r.id);
    return ids;
  }();
  return repos;
}

namespace {

using nlohmann::json;

datasets::IssueRecord parse_issue(const json& item, const std::string& repo, const std::string& where) {
  datasets::IssueRecord r;
  r.repo = repo;
  r.number = common::json_integer(item, "number", where);
  r.url = common::json_string(item, "html_url", where);
  r.state = common::json_string(item, "state", where);
  r.created = common::json_string(item, "created_at", where);
  r.updated = common::json_string(item, "updated_at", where);
  r.title = common::json_string(item, "title", where);
  r.body = common::json_string(item, "body", where, true);
  if (item.contains("labels")) {
    if (!item.at("labels").is_array()) throw Error(where + ": 'labels' is not a list");
    for (const auto& l : item.at("labels")) {
      if (l.is_object() && l.contains("name") && l.at("name").is_string())
        r.labels.push_back(l.at("name").get<std::string>());
    }
  }
  r.raw_json = item.dump();
  return r;
}

datasets::CommentRecord parse_comment(const json& item, const std::string& repo, const std::string& where) {
  datasets::CommentRecord c;
  c.id = common::json_integer(item, "id", where);
  c.repo = repo;
  std::string issue_url = common::json_string(item, "issue_url", where);
  try {
    c.issue_number = std::stoll(issue_url.substr(issue_url.rfind('/') + 1));
  } catch (const std::exception&) {
    throw Error(where + ": comment " + std::to_string(c.id) + " has an unreadable issue_url '" + issue_url +
                "'");
  }
  // A deleted account shows as a null user or login: the comment stays, without an author.
  if (item.contains("user") && item.at("user").is_object()) {
    c.author =
        common::json_optional_string(item.at("user"), "login", where + ": comment " + std::to_string(c.id));
  }
  c.created = common::json_string(item, "created_at", where);
  c.updated = common::json_string(item, "updated_at", where);
  c.body = common::json_string(item, "body", where, true);
  c.raw_json = item.dump();
  return c;
}

std::string listing_url(const std::string& repo, const std::string& listing, const std::string& since) {
  std::string url = "/repos/" + repo + (listing == "issues" ? "/issues?state=all&" : "/issues/comments?") +
                    "per_page=100&sort=updated&direction=asc";
  if (!since.empty()) url += "&since=" + since;
  return url;
}

// The refresh point after a high-water mark: one second later (GitHub timestamps have whole seconds), so
// the newest stored object is not fetched again.
std::string after(const std::string& high_water) {
  return common::format_iso8601(common::parse_iso8601(high_water) + 1);
}

class RepositoryMiner {
 public:
  RepositoryMiner(datasets::Database& db, GitHubApi& api, MineSummary& summary, const MineOptions& options,
                  const std::function<void(const std::string&)>& progress)
      : db_(db), api_(api), summary_(summary), options_(options), progress_(progress) {}

  void run(std::string repo) {
    int64_t repo_id = datasets::ensure_repository(db_, repo);
    bool first_mine =
        !datasets::load_high_water(db_, repo_id, "issues") && !datasets::load_cursor(db_, repo_id, "issues");
    if (first_mine) repo = check_repository(repo);
    listing(repo, repo_id, "issues");
    listing(repo, repo_id, "comments");
  }

 private:
  // The per-repository constant: one request for the repository itself, which also reveals a rename.
  std::string check_repository(const std::string& repo) {
    Page page = api_.get("/repos/" + repo, std::nullopt);
    std::string where = "GET " + page.url;
    std::string actual = common::json_string(page.body, "full_name", where);
    if (actual != repo) {
      db_.transaction([&] { datasets::rename_repository(db_, repo, actual); });
      summary_.renamed.push_back({repo, actual});
    }
    return actual;
  }

  void listing(const std::string& repo, int64_t repo_id, const std::string& kind) {
    std::optional<std::string> cursor = datasets::load_cursor(db_, repo_id, kind);
    std::string url;
    if (cursor) {
      url = *cursor;
    } else {
      auto high_water = datasets::load_high_water(db_, repo_id, kind);
      url = api_.base_url() + listing_url(repo, kind, high_water ? after(*high_water) : options_.since);
    }
    std::string first_url = url;
    int pages = 0;
    // After the last page, ask once more from the new high-water mark, so the next refresh finds a stored
    // validator for exactly that URL and is answered 304 when nothing changed. Bounded: a busy repository
    // may keep moving.
    for (int primes = 0; primes < 3; ++primes) {
      while (!url.empty()) {
        Page page = api_.get(url, datasets::load_validator(db_, url));
        ++pages;
        report(repo, kind, pages, page.rate_remaining);
        if (page.status == 304) {
          db_.transaction([&] { datasets::clear_cursor(db_, repo_id, kind); });
          return;
        }
        store_page(repo, repo_id, kind, page);
        url = page.next_url;
      }
      auto high_water = datasets::load_high_water(db_, repo_id, kind);
      if (!high_water) return;
      std::string primed = api_.base_url() + listing_url(repo, kind, after(*high_water));
      if (primed == first_url) return;
      url = first_url = primed;
    }
  }

  void store_page(const std::string& repo, int64_t repo_id, const std::string& kind, const Page& page) {
    std::string where = "GET " + page.url;
    if (!page.body.is_array())
      throw Error(where + ": expected a JSON list, got " + std::string(page.body.type_name()));
    std::vector<datasets::IssueRecord> issues;
    std::vector<datasets::CommentRecord> comments;
    std::string newest;
    long skipped = 0;
    // Parse everything before writing anything: a malformed item leaves the store as it was.
    for (const auto& item : page.body) {
      if (!item.is_object())
        throw Error(where + ": a list entry is " + std::string(item.type_name()) + ", not an object");
      std::string updated = common::json_string(item, "updated_at", where);
      newest = std::max(newest, updated);
      if (kind == "issues") {
        if (item.contains("pull_request")) {
          ++skipped;
          continue;
        }
        issues.push_back(parse_issue(item, repo, where));
      } else {
        comments.push_back(parse_comment(item, repo, where));
      }
    }
    db_.transaction([&] {
      for (const auto& issue : issues) datasets::upsert_issue(db_, issue);
      for (const auto& comment : comments) datasets::upsert_comment(db_, comment);
      if (!newest.empty()) datasets::raise_high_water(db_, repo_id, kind, newest);
      datasets::save_validator(db_, page.url, page.validator);
      if (page.next_url.empty()) {
        datasets::clear_cursor(db_, repo_id, kind);
      } else {
        datasets::save_cursor(db_, repo_id, kind, page.next_url);
      }
    });
    summary_.issues += static_cast<long>(issues.size());
    summary_.comments += static_cast<long>(comments.size());
    summary_.pull_requests_skipped += skipped;
  }

  void report(const std::string& repo, const std::string& kind, int pages, const std::string& remaining) {
    if (!progress_) return;
    progress_(repo + ": " + kind + " page " + std::to_string(pages) + ", " + std::to_string(summary_.issues) +
              " issues, " + std::to_string(summary_.comments) + " comments, " +
              std::to_string(api_.stats().requests) + " requests" +
              (remaining.empty() ? "" : ", " + remaining + " left") +
              (api_.stats().rate_limit_waits ? ", " + std::to_string(api_.stats().rate_limit_waits) + " waits"
                                             : ""));
  }

  datasets::Database& db_;
  GitHubApi& api_;
  MineSummary& summary_;
  const MineOptions& options_;
  const std::function<void(const std::string&)>& progress_;
};

// A timeline event's field as text; the event kinds differ in shape, so a field that is absent, null or
// not a string reads as empty.
std::string timeline_text(const json& object, const char* name) {
  return object.is_object() && object.contains(name) && object.at(name).is_string()
             ? object.at(name).get<std::string>()
             : std::string();
}

// Timeline events of every issue kept in the sample: cross-references and commits, the evidence of fixes.
void mine_timelines(datasets::Database& db, GitHubApi& api, MineSummary& summary,
                    const MineOptions& options) {
  for (const auto& entry : datasets::load_sample(db, options.sample)) {
    if (entry.status != "sampled") continue;
    auto issue = datasets::load_issue(db, entry.issue_id);
    std::vector<std::pair<std::string, std::string>> events;
    std::vector<std::string> raw;
    std::string url = api.base_url() + "/repos/" + issue.repo + "/issues/" + std::to_string(issue.number) +
                      "/timeline?per_page=100";
    while (!url.empty()) {
      Page page = api.get(url, std::nullopt);
      if (!page.body.is_array()) throw Error("GET " + page.url + ": expected a JSON list");
      for (const auto& e : page.body) {
        std::string reference;
        if (e.contains("source") && e["source"].is_object())
          reference = timeline_text(e["source"].value("issue", json()), "html_url");
        if (reference.empty()) reference = timeline_text(e, "commit_id");
        if (reference.empty()) reference = timeline_text(e, "sha");
        events.push_back({timeline_text(e, "event"), reference});
        raw.push_back(e.dump());
      }
      url = page.next_url;
    }
    db.transaction([&] { datasets::replace_timeline(db, issue.id, events, raw); });
    summary.timeline_events += static_cast<long>(events.size());
  }
}

}  // namespace

MineSummary mine(datasets::Database& db, const MineOptions& options,
                 const std::function<void(const std::string&)>& progress) {
  if (options.repositories.empty())
    throw Error("mine: name repositories with --repo OWNER/NAME or use --study");
  for (const auto& repo : options.repositories) {
    auto slash = repo.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == repo.size()) {
      throw Error("mine: '" + repo + "' is not of the form OWNER/NAME");
    }
  }
  MineSummary summary;
  GitHubApi api(options.api);
  try {
    for (const auto& repo : options.repositories)
      RepositoryMiner(db, api, summary, options, progress).run(repo);
    if (options.timeline) mine_timelines(db, api, summary, options);
  } catch (const RequestBudgetExhausted&) {
    summary.stopped_early = true;
  }
  summary.stats = api.stats();
  return summary;
}

nlohmann::json mine_summary_json(const MineSummary& s) {
  return {{"requests", s.stats.requests},
          {"not_modified", s.stats.not_modified},
          {"issues", s.issues},
          {"pull_requests_skipped", s.pull_requests_skipped},
          {"comments", s.comments},
          {"retries", s.stats.retries},
          {"rate_limit_waits", s.stats.rate_limit_waits},
          {"timeline_events", s.timeline_events},
          {"stopped_early", s.stopped_early}};
}

}  // namespace faultline::miner
