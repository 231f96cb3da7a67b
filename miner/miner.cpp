#include "miner/miner.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/issue_url.hpp"
#include "common/joined.hpp"
#include "common/json_fields.hpp"
#include "common/one_line.hpp"
#include "common/repository_name.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/mining_store.hpp"
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

constexpr int kPerPage = 100;
// The most issue numbers --verify accounts for in one repository (the largest on GitHub are under a million).
constexpr int64_t kMostNumbersVerified = 10'000'000;
// --verify's search past the listing's highest number: it ends after this many numbers in a row are not there
// (404 or 410), and goes at most this far (a server that answers every number would otherwise hold it).
constexpr int kMissesEndingTheSearch = 3;
constexpr int64_t kMostNumbersSearchedPast = 1000;
// How far past this machine's clock an updated_at may be where no answer said GitHub's time, and how far
// ahead of it a Date may be to start a pass: clocks drift, a century does not.
constexpr int64_t kFutureSlackSeconds = 24 * 3600;
// Walks of a listing after its pass (RepositoryMiner::next_walk): one to read again what the pass may have
// gone past unseen, one to end where the next refresh asks, and one more while entries keep changing.
constexpr int kMaxWalks = 3;
// Readings of one second's entries paged by GitHub's page numbers (RepositoryMiner::SameSecondGroup): the
// first, and up to two more while a reading stores what the one before it missed.
constexpr int kMaxGroupReadings = 3;

// "owner/name" of an API URL ".../repos/owner/name/...", or empty.
std::string repository_in_url(const std::string& url) {
  auto start = url.find("/repos/");
  if (start == std::string::npos) return "";
  start += 7;
  auto slash = url.find('/', start);
  if (slash == std::string::npos) return "";
  auto end = url.find_first_of("/?#", slash + 1);
  return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// A time GitHub writes as "YYYY-MM-DDTHH:MM:SSZ": the store orders issues and comments by these strings,
// and the next refresh asks for what changed since the newest of them.
std::string moment(const json& item, const char* field, const std::string& where) {
  std::string value = common::json_string(item, field, where);
  if (common::timestamp_form(value) != common::TimestampForm::kMoment)
    throw Error(where + ": " + field + " '" + value + "' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)");
  return value;
}

// An updated_at after `latest_believable` (RepositoryMiner::latest_believable) would become the high-water
// mark, or a stored version no later one could replace (`differs`).
void require_believable(const std::string& updated, const std::string& latest_believable,
                        const std::string& where) {
  if (updated > latest_believable)
    throw Error(where + ": updated_at '" + updated + "' is in the future (after " + latest_believable +
                ", the answer's Date and half of --overlap); nothing of the answer was stored");
}

// An entry's html_url, checked as a snapshot record's url is (so that what the miner stores exports and
// imports again), and as the page of this repository's issue or pull request (as `pull_request` says) of
// that number: the repository's listing and its issue URLs hold only its own entries, under its current
// name (a rename is noticed before its pages are read), and another repository's issue would be stored,
// exported and linked as this one's, its pull request would account for a number of this one's.
std::string entry_page(const json& item, int64_t number, bool pull_request, const std::string& repo,
                       const std::string& where) {
  const std::string url = common::json_string(item, "html_url", where);
  common::require_issue_url(url, number, where, "html_url");
  const common::IssuePage page = *common::read_issue_page(url);
  const std::string entry = (pull_request ? "pull request " : "issue ") + std::to_string(number);
  if (!common::same_repository_name(page.repo, repo))
    throw Error(where + ": html_url '" + url + "' of " + entry + " is a page of another repository ('" +
                std::string(page.repo) + "'), not of " + repo + "; nothing of the page was stored");
  if (page.pull_request != pull_request)
    throw Error(where + ": html_url '" + url + "' of " + entry + " is the page of " +
                (page.pull_request ? "a pull request" : "an issue") + "; nothing of the page was stored");
  return url;
}

datasets::IssueRecord parse_issue(const json& item, const std::string& repo, const std::string& where) {
  datasets::IssueRecord r;
  r.repo = repo;
  r.number = common::json_integer(item, "number", where);
  r.url = entry_page(item, r.number, false, repo, where);
  r.state = common::json_string(item, "state", where);
  if (r.state != "open" && r.state != "closed")
    throw Error(where + ": state '" + r.state + "' of " + r.key() + " is neither 'open' nor 'closed'");
  r.created = moment(item, "created_at", where);
  r.updated = moment(item, "updated_at", where);
  if (!common::not_before(r.updated, r.created)) {
    throw Error(where + ": updated_at '" + r.updated + "' of " + r.key() + " is before its created_at '" +
                r.created + "'");
  }
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

// GitHub shows the author of a deleted account as "ghost"; the API may send a null user or login.
std::string author_login(const json& item) {
  if (item.contains("user") && item.at("user").is_object() && item.at("user").contains("login") &&
      item.at("user").at("login").is_string())
    return item.at("user").at("login").get<std::string>();
  return "ghost";
}

datasets::CommentRecord parse_comment(const json& item, const std::string& repo, const std::string& where) {
  datasets::CommentRecord c;
  c.id = common::json_integer(item, "id", where);
  c.repo = repo;
  std::string issue_url = common::json_string(item, "issue_url", where);
  const auto number = common::issue_number_of(std::string_view(issue_url).substr(issue_url.rfind('/') + 1));
  if (!number)
    throw Error(where + ": comment " + std::to_string(c.id) + " has an unreadable issue_url '" + issue_url +
                "'");
  c.issue_number = *number;
  // The repository's comments listing holds only its own: a comment said to be of another repository's
  // issue would be stored as a comment of this repository's issue of that number.
  if (const std::string of = repository_in_url(issue_url); !common::same_repository_name(of, repo))
    throw Error(where + ": comment " + std::to_string(c.id) + " is of an issue of '" + of + "' (issue_url '" +
                issue_url + "'), not of " + repo);
  c.author = author_login(item);
  c.created = moment(item, "created_at", where);
  c.updated = moment(item, "updated_at", where);
  c.body = common::json_string(item, "body", where, true);
  c.raw_json = item.dump();
  return c;
}

std::string listing_url(const std::string& repo, const std::string& listing, const std::string& since) {
  std::string url = "/repos/" + repo + (listing == "issues" ? "/issues?state=all&" : "/issues/comments?") +
                    "per_page=" + std::to_string(kPerPage) + "&sort=updated&direction=asc";
  if (!since.empty()) url += "&since=" + since;
  return url;
}

// The value of `name` in a URL's query, percent-decoded, or empty.
std::string query_value(const std::string& url, const std::string& name) {
  auto query = url.find('?');
  if (query == std::string::npos) return "";
  for (size_t pos = query + 1; pos < url.size();) {
    size_t end = url.find('&', pos);
    if (end == std::string::npos) end = url.size();
    std::string pair = url.substr(pos, end - pos);
    if (pair.rfind(name + "=", 0) == 0) return percent_decoded(pair.substr(name.size() + 1));
    pos = end + 1;
  }
  return "";
}

// One listing page, parsed before anything is written, so that a malformed item leaves the store as it was.
struct ParsedPage {
  std::vector<datasets::IssueRecord> issues;
  std::vector<datasets::CommentRecord> comments;
  std::vector<std::pair<int64_t, std::string>> pull_requests;  // number, updated_at
  std::string newest;                                          // the largest updated_at on the page
};

// `latest_believable`: the latest updated_at the page may hold (RepositoryMiner::latest_believable).
ParsedPage parse_page(const std::string& kind, const std::string& repo, const std::string& latest_believable,
                      const Page& page) {
  std::string where = "GET " + page.url;
  if (!page.body.is_array())
    throw Error(where + ": expected a JSON list, got " + std::string(page.body.type_name()));
  ParsedPage parsed;
  // The cursor trusts the listing's order: an entry out of it, or one from the future, would move the cursor
  // past entries never read (and a time in 2099 would end every later refresh), so the page is refused.
  const std::string since = query_value(page.url, "since");
  std::string previous = since;
  try {
    for (const auto& item : page.body) {
      if (!item.is_object())
        throw Error(where + ": a list entry is " + std::string(item.type_name()) + ", not an object");
      std::string updated = moment(item, "updated_at", where);  // pull requests' too: it moves the cursor
      if (updated < previous)
        throw Error(
            where + ": updated_at '" + updated + "' comes after '" + previous +
            "' in a listing asked for in ascending order from 'since'; nothing of the page was stored");
      require_believable(updated, latest_believable, where);
      previous = updated;
      parsed.newest = std::max(parsed.newest, updated);
      if (kind == "comments") {
        parsed.comments.push_back(parse_comment(item, repo, where));
      } else if (item.contains("pull_request")) {
        const int64_t number = common::json_integer(item, "number", where);
        entry_page(item, number, true, repo, where);
        parsed.pull_requests.push_back({number, updated});
      } else {
        parsed.issues.push_back(parse_issue(item, repo, where));
      }
    }
  } catch (const json::exception& e) {
    throw Error(where + ": unexpected content (" + std::string(e.what()) + ")");
  }
  return parsed;
}

// Whether an object fetched as (updated, raw) is worth writing over what the store holds: it is new, newer,
// or edited again within the stored version's second (GitHub's times have whole seconds, and a bot may close
// and label an issue in one). An older one is not: a refresh reads again what changed shortly before the
// mark (MineOptions::overlap_seconds), where a lagging answer could bring an earlier version.
bool differs(const std::string& updated, const std::string& raw,
             const std::optional<datasets::StoredVersion>& stored) {
  if (!stored || updated > stored->updated) return true;
  return updated == stored->updated && raw != stored->raw_json;
}

// GitHub's id of an issue object stored as it came, or nullopt (a record imported from a snapshot).
std::optional<int64_t> github_issue_id(const std::string& raw_json) {
  if (raw_json.empty()) return std::nullopt;
  json j = json::parse(raw_json, nullptr, false);
  if (!j.is_object() || !j.contains("id") || !j.at("id").is_number_integer()) return std::nullopt;
  return j.at("id").get<int64_t>();
}

// An issue number names one issue for good: another GitHub id under a stored number means the name now
// leads to another repository (renamed away, the name taken by a new one) or the answer is not this
// repository's. Nothing is written over it.
void require_same_issue(const datasets::StoredVersion& stored, const datasets::IssueRecord& fetched,
                        const std::string& where) {
  const auto before = github_issue_id(stored.raw_json), now = github_issue_id(fetched.raw_json.value_or(""));
  if (before && now && *before != *now)
    throw Error(where + ": " + fetched.key() + " is GitHub issue " + std::to_string(*now) +
                ", but the store holds it as GitHub issue " + std::to_string(*before) +
                ": the name may now belong to another repository; nothing of the page was stored");
}

// Why an issue GitHub answered 404 or 410 for is gone, as --verify and --timeline say it.
std::string missing_reason(long status) {
  return status == 410 ? "410: deleted" : "404: deleted, or not visible with this token";
}

class RepositoryMiner {
 public:
  RepositoryMiner(datasets::Database& db, GitHubApi& api, MineSummary& summary, const MineOptions& options,
                  const std::function<void(const std::string&)>& progress)
      : db_(db), api_(api), summary_(summary), options_(options), progress_(progress) {}

  void run(const std::string& requested) {
    // A name recorded as renamed mines the repository it became.
    repo_ = datasets::current_repository_name(db_, requested).value_or(requested);
    const size_t renames = summary_.renamed.size();
    check_repository();
    repo_id_ = datasets::ensure_repository(db_, repo_);
    // A verify stopped before a rename may have taken the repository's own issues, answered under the new
    // name, for transfers: it begins again.
    if (summary_.renamed.size() != renames)
      db_.transaction([&] { datasets::clear_verify_progress(db_, repo_id_); });
    // Listings under way go on first, so that a mine stopped by --max-requests reaches the listing it stopped
    // in before it begins another pass of one it finished.
    std::vector<std::string> under_way, fresh;
    for (const char* kind : {"issues", "comments"}) {
      auto cursor = datasets::load_cursor(db_, repo_id_, kind);
      (cursor && follows_here(*cursor) ? under_way : fresh).push_back(kind);
    }
    for (const auto& kind : under_way) listing(kind);
    for (const auto& kind : fresh) listing(kind);
    if (options_.verify) summary_.verified.push_back(verify());
  }

 private:
  // A cursor saved under another --api-url is not followed here: the high-water mark, saved with each page
  // beside it, picks the listing up at this API.
  bool follows_here(const datasets::Cursor& cursor) const {
    return cursor.next_url.rfind(api_.base_url() + "/", 0) == 0;
  }

  // The per-repository constant: one request for the repository itself, on every mine. It reveals a rename
  // (also one that happened before this name was first mined, through GitHub's id, which survives renames)
  // and a name given to another repository since the last mine, before any of the newcomer's issues could be
  // stored under the old one's. Conditional: unchanged, it is answered 304, which GitHub does not count
  // against the rate limit.
  //
  // `asked` is the name to ask for, when a redirect says the repository is called so now: it is renamed only
  // once that name's answer is the stored repository (a redirect alone proves nothing).
  void check_repository(const std::optional<std::string>& asked = std::nullopt) {
    const std::string name = asked.value_or(repo_);
    const std::string url = api_.base_url() + "/repos/" + name;
    // A rename is confirmed by a whole answer, never by a 304 to a validator an earlier name left.
    Page page = api_.get(url, asked ? std::nullopt : datasets::load_validator(db_, url));
    if (page.status == 304) return;  // the answer the last mine checked
    std::string where = "GET " + page.url;
    std::string actual = common::json_string(page.body, "full_name", where);
    // The name becomes the store's and every document's: a server's answer is checked like a user's.
    common::require_repository_name(actual, where + ": full_name");
    int64_t github_id = common::json_integer(page.body, "id", where);
    if (auto stored = datasets::find_repository(db_, repo_)) {
      auto stored_id = datasets::github_id_of(db_, *stored);
      if (stored_id && *stored_id != github_id && asked)
        throw Error(where + ": a request of " + repo_ + " was redirected to " + name +
                    ", which is GitHub repository " + std::to_string(github_id) + ", not the store's " +
                    repo_ + " (GitHub repository " + std::to_string(*stored_id) +
                    "): no rename; nothing was renamed, and nothing of the redirected answer was stored");
      if (stored_id && *stored_id != github_id)
        throw Error(
            where + ": " + repo_ + " is GitHub repository " + std::to_string(github_id) +
            " now, but the store's " + repo_ + " is GitHub repository " + std::to_string(*stored_id) +
            ": the name belongs to another repository (the stored one was renamed, transferred or "
            "deleted); nothing of it was mined. Under its new name, if it has one (GET /repositories/" +
            std::to_string(*stored_id) + " says it), it is mined as the stored repository");
      if (!stored_id) confirm_by_issues(*stored);
    }
    auto known_as = datasets::repository_with_github_id(db_, github_id);
    if (known_as && *known_as != actual) record_rename(*known_as, actual);
    if (actual != repo_) record_rename(repo_, actual);
    // The validator is kept under the name the answer is of, which the next mine asks for.
    db_.transaction([&] {
      datasets::set_github_id(db_, datasets::ensure_repository(db_, repo_), github_id);
      datasets::save_validator(db_, api_.base_url() + "/repos/" + repo_, page.validator);
    });
  }

  // A repository stored without GitHub's repository id (mined before faultline recorded it, store migration
  // 8) is confirmed once through its issues: of its mined issues with the highest numbers (up to three, in
  // case one was deleted since), the first GitHub still answers for must be the same GitHub issue. A store
  // whose issues carry no API object (imported from a snapshot) has nothing to compare and is taken as it is.
  void confirm_by_issues(int64_t stored) {
    std::vector<std::string> gone;
    for (const auto& [number, raw] : datasets::newest_mined_issues(db_, stored, 3)) {
      const auto before = github_issue_id(raw);
      if (!before) continue;
      Page page = api_.get("/repos/" + repo_ + "/issues/" + std::to_string(number), std::nullopt, true);
      const std::string key = repo_ + "#" + std::to_string(number);
      if (page.status != 200) {
        gone.push_back(key + " (" + missing_reason(page.status) + ")");
        continue;
      }
      if (!page.body.is_object()) throw Error("GET " + page.url + ": expected a JSON object");
      // The same GitHub issue, under this name or the one a rename gave it: the same repository.
      const auto now = github_issue_id(page.body.dump());
      if (now == before) return;
      if (const std::string moved = moved_to(page, number); !moved.empty()) {
        gone.push_back(key + " (transferred to " + moved + ")");
        continue;
      }
      throw Error("GET " + page.url + ": " + key + " is GitHub issue " + (now ? std::to_string(*now) : "?") +
                  ", but the store holds it as GitHub issue " + std::to_string(*before) +
                  ": the name belongs to another repository (the stored one was renamed, transferred or "
                  "deleted); nothing of it was mined");
    }
    if (!gone.empty()) {
      throw Error(repo_ + ": none of its newest stored issues is there any more (" + common::joined(gone) +
                  "): the name may belong to another repository; nothing of it was mined");
    }
  }

  void record_rename(const std::string& from, const std::string& to) {
    std::string base = api_.base_url() + "/repos/";
    db_.transaction([&] {
      datasets::rename_repository(db_, from, to);
      datasets::move_validators(db_, base + from + "/", base + to + "/");
      datasets::move_cursors(db_, base + from + "/", base + to + "/");
    });
    summary_.renamed.push_back({from, to});
    repo_ = to;
    repo_id_ = *datasets::find_repository(db_, repo_);  // the row the store keeps under the new name
  }

  // Any request of the repository's own URLs answered through a redirect to another name is a rename.
  void notice_rename(const Page& page) {
    if (!page.redirected) return;
    std::string now_called = repository_in_url(page.url);
    if (now_called.empty()) {
      // GitHub redirects a renamed repository's requests to /repositories/ID/..., which does not say the new
      // name: the repository's own answer does.
      if (page.url.find("/repositories/") != std::string::npos) check_repository();
      return;
    }
    common::require_repository_name(now_called, "redirected to " + page.url);
    if (now_called == repo_) return;
    // The repository's own answer under the new name confirms the rename before it is recorded, and its
    // validator (the old one was of the old name's answer) lets the next refresh be answered 304.
    check_repository(now_called);
  }

  // Pages by an updated_at cursor: each next request asks from the newest updated_at seen, inclusive, and
  // what is already stored as it is gets skipped. An item edited during the listing moves to the end,
  // where the cursor still finds it; no neighbour slides onto a page already read.
  //
  // After the pass, the listing is walked again (next_walk). Every step, the walks included, is kept in the
  // cursor with the page that leads to it, so a stopped or killed mine goes on where it was.
  void listing(const std::string& kind) {
    datasets::Cursor at;
    if (auto cursor = datasets::load_cursor(db_, repo_id_, kind); cursor && follows_here(*cursor)) {
      at = *cursor;
      // A cursor of an earlier faultline kept no start: the pass counts from its resumption.
      if (at.started.empty()) at.started = pass_start_time(std::nullopt);
    } else {
      auto high_water = datasets::load_high_water(db_, repo_id_, kind);
      at.next_url =
          api_.base_url() + listing_url(repo_, kind, high_water ? refresh_from(*high_water) : options_.since);
      at.started = pass_start_time(high_water);
      at.walk_start = at.next_url;
      // Under way from here: a run stopped before the first page goes on with this pass.
      db_.transaction([&] { datasets::save_cursor(db_, repo_id_, kind, at); });
    }
    seen_pull_requests_.clear();
    std::optional<SameSecondGroup> group = group_resumed(kind, at);
    int pages = 0;
    // The pages of this walk: a Link that leads back to one of them would loop forever.
    std::set<std::string> requested;
    while (true) {
      const std::string url = at.next_url;
      if (!requested.insert(url).second)
        throw Error(repo_ + ": the " + kind + " listing leads back to a page already read in this run (" +
                    url + "); stopped, everything before it is stored");
      Page page = api_.get(url, datasets::load_validator(db_, url));
      notice_rename(page);
      std::optional<datasets::Cursor> then;
      // Where the listing goes on once the page is stored (`stored`: how many entries it wrote).
      auto go_on = [&](std::string next, int64_t stored) {
        if (group) {
          group->stored += stored;
          if (!stays_in_second(page)) {  // the second's last page
            if (std::string again = group->reading_again(); !again.empty()) {
              next = again;
              requested.clear();  // the second's pages again, a bounded number of times
            } else {
              group.reset();
            }
          }
        }
        then = keep_cursor(
            kind, next.empty() ? next_walk(kind, at)
                               : datasets::Cursor{next, at.started, at.walk, at.walk_start,
                                                  group ? group->readings : 0, group ? group->stored : 0});
      };
      if (page.status == 304) {  // the page as it was when last read, to the end of the walk
        db_.transaction([&] { go_on("", 0); });
      } else {
        if (!group && stays_in_second(page))
          group = SameSecondGroup{api_.base_url() + listing_url(repo_, kind, query_value(page.url, "since"))};
        const std::string next = next_request(kind, page);
        store_page(kind, page, [&](long stored) { go_on(next, stored); });
      }
      report(kind, ++pages, page.rate_remaining);  // with the page's items counted
      if (!then) return;
      if (then->walk != at.walk) {
        requested.clear();
        group.reset();
      }
      at = *then;
    }
  }

  // More than a page of entries updated in one second (a bulk edit) can only be paged by GitHub's page
  // numbers, and an entry of that second edited meanwhile leaves it for the end of the listing: the entries
  // after it move up one place, and one of them onto a page already read. So once the last page of the
  // second is read, the second is read again from its first page while a reading stored anything (an entry
  // the one before it missed stores; one that finds all as stored ends it), at most kMaxGroupReadings times.
  // The cursor keeps which reading it is in and what that reading stored, so that a stopped mine goes on
  // with them.
  struct SameSecondGroup {
    std::string first_page;  // the listing from that second
    int64_t stored = 0;      // entries the current reading wrote
    int readings = 1;

    // The first page again when the reading that ended stored something and readings are left; else empty.
    std::string reading_again() {
      if (stored == 0 || readings >= kMaxGroupReadings) return "";
      ++readings;
      stored = 0;
      return first_page;
    }
  };

  // The reading a cursor was stopped in. A cursor an earlier faultline saved at one of GitHub's numbered
  // pages kept none: what its reading stored is not known, so it counts as having stored something.
  std::optional<SameSecondGroup> group_resumed(const std::string& kind, const datasets::Cursor& at) const {
    const bool numbered = !query_value(at.next_url, "page").empty();
    if (at.group_reading == 0 && !numbered) return std::nullopt;
    const std::string first = api_.base_url() + listing_url(repo_, kind, query_value(at.next_url, "since"));
    if (at.group_reading == 0) return SameSecondGroup{first, 1, 1};
    return SameSecondGroup{first, at.group_stored, at.group_reading};
  }

  // Whether a page's entries all share the second it was asked from and more follow it: the cursor cannot
  // move past that second, and GitHub's page numbers lead on.
  static bool stays_in_second(const Page& page) {
    if (page.status == 304 || page.next_url.empty()) return false;
    const std::string newest = newest_updated(page);
    return newest.empty() || newest == query_value(page.url, "since");
  }

  static std::string newest_updated(const Page& page) {
    std::string newest;
    for (const auto& item : page.body)
      if (item.is_object() && item.contains("updated_at") && item["updated_at"].is_string())
        newest = std::max(newest, item["updated_at"].get<std::string>());
    return newest;
  }

  // Saves where the listing goes on, or clears it after the last walk; returns it.
  std::optional<datasets::Cursor> keep_cursor(const std::string& kind,
                                              const std::optional<datasets::Cursor>& next) {
    if (next) {
      datasets::save_cursor(db_, repo_id_, kind, *next);
    } else {
      datasets::clear_cursor(db_, repo_id_, kind);
    }
    return next;
  }

  // The walk after the pass or walk `at` is in, which has ended; none when the listing is done. One that
  // read edits made after it began (the new high-water mark later than its start) may have gone past an entry
  // GitHub showed late, within the overlap: the listing is walked again from --overlap before that start.
  // Otherwise from --overlap before the mark, where the next refresh will ask, so that it finds a stored
  // validator for exactly that URL and is answered 304 when nothing changed; done when the walk that ended
  // began there. A busy repository may keep moving: at most kMaxWalks walks follow a pass.
  std::optional<datasets::Cursor> next_walk(const std::string& kind, const datasets::Cursor& at) {
    auto high_water = datasets::load_high_water(db_, repo_id_, kind);
    if (!high_water || at.walk >= kMaxWalks) return std::nullopt;
    const bool again = at.started < *high_water;
    const std::string url =
        api_.base_url() + listing_url(repo_, kind, refresh_from(again ? at.started : *high_water));
    if (!again && url == at.walk_start) return std::nullopt;
    return datasets::Cursor{url, pass_start_time(high_water), at.walk + 1, url};
  }

  // When a pass or walk begins, in GitHub's time: the Date of the last answer this run had (before its first
  // request, so not after its start), or this machine's clock before any. A Date before the listing's mark
  // or over a day ahead of this machine's clock is not GitHub's clock, and this machine's is taken.
  std::string pass_start_time(const std::optional<std::string>& high_water) const {
    const std::string server = api_.last_server_time();
    if (server.empty() || server > common::format_iso8601(std::time(nullptr) + kFutureSlackSeconds) ||
        (high_water && server < *high_water))
      return common::utc_now();
    return server;
  }

  // The latest updated_at `page` may hold: its Date and half of --overlap (GitHub's clocks differ by
  // seconds). A later one would become the high-water mark, and the next refresh, asking from --overlap
  // before it, would pass over every edit made between this run and that time. An answer without a
  // believable Date (Page::server_time) is held to this machine's clock and a day.
  std::string latest_believable(const Page& page) const {
    if (page.server_time.empty()) return common::format_iso8601(std::time(nullptr) + kFutureSlackSeconds);
    return common::format_iso8601(common::parse_iso8601(page.server_time) + options_.overlap_seconds / 2);
  }

  // Where a refresh asks from: --overlap seconds before the high-water mark, the mark itself included.
  std::string refresh_from(const std::string& high_water) const {
    return common::format_iso8601(
        std::max<int64_t>(0, common::parse_iso8601(high_water) - options_.overlap_seconds));
  }

  // The request after `page`: from the newest updated_at on it, or — when the whole page shares the second
  // it was asked from, so the cursor cannot move — GitHub's own next link. Empty after the last page.
  std::string next_request(const std::string& kind, const Page& page) {
    if (page.next_url.empty()) return "";
    if (stays_in_second(page)) return page.next_url;
    return api_.base_url() + listing_url(repo_, kind, newest_updated(page));
  }

  // Stores a page's entries and, in the same transaction (after the high-water mark has moved), where the
  // listing goes on: `then` saves it, told how many entries the page wrote (pull requests new to the store
  // included).
  void store_page(const std::string& kind, const Page& page, const std::function<void(int64_t)>& then) {
    ParsedPage parsed = parse_page(kind, repo_, latest_believable(page), page);
    long issues = 0, comments = 0, skipped = 0;
    db_.transaction([&] {
      // Prepared once a page: migration 13's triggers make each statement on issues and comments costly to
      // compile.
      datasets::IssueWriter issue_writer(db_);
      datasets::CommentWriter comment_writer(db_);
      for (const auto& issue : parsed.issues) {
        auto stored = datasets::stored_issue_version(db_, repo_id_, issue.number);
        if (stored) require_same_issue(*stored, issue, "GET " + page.url);
        // A number GitHub gave a pull request never names an issue: the name leads elsewhere now.
        if (datasets::is_recorded_pull_request(db_, repo_id_, issue.number))
          throw Error(
              "GET " + page.url + ": " + issue.key() +
              " is listed as an issue, but the store knows it as a pull request: the name may now belong "
              "to another repository; nothing of the page was stored");
        if (!differs(issue.updated, issue.raw_json.value_or(""), stored)) continue;
        issue_writer.upsert(issue);
        ++issues;
      }
      for (const auto& comment : parsed.comments) {
        if (!differs(comment.updated, comment.raw_json.value_or(""),
                     datasets::stored_comment_version(db_, comment.id)))
          continue;
        comment_writer.upsert(comment);
        ++comments;
      }
      long new_pull_requests = 0;  // numbers the store learns are pull requests
      for (const auto& pr : parsed.pull_requests) {
        // And the other way round: a number the store holds an issue under never names a pull request.
        if (datasets::stored_issue_version(db_, repo_id_, pr.first))
          throw Error(
              "GET " + page.url + ": " + repo_ + "#" + std::to_string(pr.first) +
              " is listed as a pull request, but the store holds an issue of that number: the name may "
              "now belong to another repository; nothing of the page was stored");
        if (!datasets::is_recorded_pull_request(db_, repo_id_, pr.first)) ++new_pull_requests;
        datasets::record_pull_request(db_, repo_id_, pr.first);
        if (seen_pull_requests_.insert(pr).second) ++skipped;
      }
      if (!parsed.newest.empty()) datasets::raise_high_water(db_, repo_id_, kind, parsed.newest);
      // Only a listing's last page is asked for again (a refresh from the high-water mark). A page with more
      // after it, or a full one (more may come after it), keeps no validator: when a page or more of entries
      // share the mark's second, the first page stays the same while new entries come after it, and a 304
      // there would hide them for good.
      // The next refresh asks from the mark, which only moves on: the listing's validators of earlier
      // marks would never be asked for again.
      if (page.next_url.empty() && page.body.size() < static_cast<size_t>(kPerPage)) {
        datasets::forget_validators_under(db_, api_.base_url() + listing_url(repo_, kind, ""), page.url);
        datasets::save_validator(db_, page.url, page.validator);
      }
      then(issues + comments + new_pull_requests);
    });
    summary_.issues += issues;
    summary_.comments += comments;
    summary_.pull_requests_skipped += skipped;
  }

  // The highest number given out, from `highest` (the listing's or the store's): the listing is the very
  // thing verified, and the newest issues are the ones it is likeliest not to show yet, so the numbers after
  // it are asked for one by one until kMissesEndingTheSearch in a row are not there (a deleted or hidden
  // number is not the end), at most kMostNumbersSearchedPast of them.
  int64_t highest_past(int64_t highest, std::map<int64_t, Page>& found) {
    const int64_t last = std::min(highest + kMostNumbersSearchedPast, kMostNumbersVerified);
    int misses = 0;
    for (int64_t n = highest + 1; misses < kMissesEndingTheSearch && n <= last; ++n) {
      if (progress_)
        progress_(repo_ + ", verify: number " + std::to_string(n) + ", past the listing's highest");
      Page page = api_.get("/repos/" + repo_ + "/issues/" + std::to_string(n), std::nullopt, true);
      if (page.status == 404 || page.status == 410) {
        ++misses;
      } else {
        misses = 0;
        highest = n;
        found.emplace(n, std::move(page));  // the verify takes this answer rather than ask again
      }
    }
    return highest;
  }

  // Accounts for every number GitHub has given out in this repository (issues and pull requests share one
  // sequence): the newest one by creation, then each number neither stored nor known as a pull request.
  VerifyReport verify() {
    VerifyReport report;
    Page newest = api_.get("/repos/" + repo_ + "/issues?state=all&sort=created&direction=desc&per_page=1",
                           std::nullopt);
    notice_rename(newest);
    report.repo = repo_;
    std::string where = "GET " + newest.url;
    if (!newest.body.is_array()) throw Error(where + ": expected a JSON list");
    if (!newest.body.empty()) report.highest_number = common::json_integer(newest.body[0], "number", where);
    // The store may hold a higher one, an issue deleted or transferred since it was mined: every number it
    // holds is accounted for.
    report.highest_number = std::max(report.highest_number, datasets::highest_stored_number(db_, repo_id_));
    // Every number up to the highest is looked up in the store at once: an absurd one would fill the memory.
    if (report.highest_number > kMostNumbersVerified)
      throw Error(where + ": the highest number is " + std::to_string(report.highest_number) +
                  ", more than --verify accounts for (" + std::to_string(kMostNumbersVerified) + ")");
    std::map<int64_t, Page> found_past;
    report.highest_number = highest_past(report.highest_number, found_past);
    // A verify stopped (--max-requests, a wait over --max-wait) goes on after the last number it checked; one
    // that ended in a run that was stopped in another repository keeps its result until the run ends (mine).
    const int64_t checked = datasets::load_verify_progress(db_, repo_id_);
    std::vector<int64_t> to_ask;
    for (int64_t number : datasets::unaccounted_numbers(db_, repo_id_, report.highest_number))
      if (number > checked) to_ask.push_back(number);
    for (int64_t number : to_ask) {
      auto searched = found_past.find(number);
      Page page = searched != found_past.end()
                      ? std::move(searched->second)
                      : api_.get("/repos/" + repo_ + "/issues/" + std::to_string(number), std::nullopt, true);
      ++report.fetched;
      std::string missing;
      bool transferred = false;
      if (page.status == 404 || page.status == 410) {
        missing = missing_reason(page.status);
      } else if (!page.body.is_object()) {
        throw Error("GET " + page.url + ": expected a JSON object");
      } else if (std::string moved = moved_to(page, number); !moved.empty()) {
        missing = "transferred to " + moved;
        transferred = true;
      }
      const bool pull_request = missing.empty() && page.body.contains("pull_request");
      if (pull_request) entry_page(page.body, number, true, repo_, "GET " + page.url);
      std::optional<datasets::IssueRecord> issue;
      if (missing.empty() && !pull_request) {
        issue = parse_issue(page.body, repo_, "GET " + page.url);
        require_believable(issue->updated, latest_believable(page), "GET " + page.url);
      }
      db_.transaction([&] {
        if (!missing.empty()) datasets::record_verify_missing(db_, repo_id_, number, missing);
        if (pull_request) datasets::record_pull_request(db_, repo_id_, number);
        if (issue) datasets::upsert_issue(db_, *issue);  // unaccounted: none is stored
        datasets::save_verify_progress(db_, repo_id_, number);
      });
      if (issue) {
        ++report.recovered;
        ++summary_.issues;
      }
      // A redirect may be this repository's own, renamed while the verify runs: asked for after the verdict
      // is kept (a stop here loses nothing: the next run's request for the repository records the rename
      // and begins the verify again), a rename makes the answer this repository's own issue.
      if (transferred && page.redirected) {
        const std::string was = repo_;
        check_repository();
        if (repo_ != was && moved_to(page, number).empty()) {  // accounted now: no longer missing
          // The verdict kept above is wrong now: should the answer be refused, the verify begins again on the
          // next run (as after a rename noticed there) rather than go on past this number as transferred.
          try {
            if (page.body.contains("pull_request")) {
              entry_page(page.body, number, true, repo_, "GET " + page.url);
              db_.transaction([&] { datasets::record_pull_request(db_, repo_id_, number); });
            } else {
              const auto own = parse_issue(page.body, repo_, "GET " + page.url);
              require_believable(own.updated, latest_believable(page), "GET " + page.url);
              db_.transaction([&] { datasets::upsert_issue(db_, own); });
              ++report.recovered;
              ++summary_.issues;
            }
          } catch (const Error&) {
            db_.transaction([&] { datasets::clear_verify_progress(db_, repo_id_); });
            throw;
          }
        }
      }
      // One request a number: a verify after a first mine from --since may take hours.
      if (progress_)
        progress_(repo_ + ", verify: number " + std::to_string(number) + ", " +
                  std::to_string(report.fetched) + " of " + std::to_string(to_ask.size()) +
                  " asked for; recovered " + std::to_string(report.recovered) + ", requests " +
                  std::to_string(api_.stats().requests));
    }
    // What this run and the runs it went on from found missing, of the numbers still unaccounted.
    const auto unaccounted = datasets::unaccounted_numbers(db_, repo_id_, report.highest_number);
    for (auto& [number, why] : datasets::load_verify_missing(db_, repo_id_)) {
      if (std::binary_search(unaccounted.begin(), unaccounted.end(), number))
        report.missing.push_back({number, std::move(why)});
    }
    report.repo = repo_;  // renamed meanwhile: under the name it has now
    report.issues = datasets::count_issues_in(db_, repo_id_);
    report.pull_requests = datasets::count_pull_requests(db_, repo_id_);
    return report;
  }

  // Where the answer to GET /repos/REPO/issues/NUMBER says the issue now is, when not here: GitHub answers
  // a transferred issue's old URL with the moved issue itself (another number, another html_url), or through
  // a redirect whose URL names another repository, or none (/repositories/ID/...). Empty when it is here.
  std::string moved_to(const Page& page, int64_t number) {
    const std::string where = "GET " + page.url;
    const std::string html_url = common::json_string(page.body, "html_url", where);
    const auto link = common::read_issue_link(html_url);
    const std::string lives_in = link ? std::string(link->repo) : repository_in_url(page.url);
    if (lives_in.empty()) return "an unnamed repository (" + html_url + ")";
    const int64_t answered = common::json_integer(page.body, "number", where);
    if (common::same_repository_name(lives_in, repo_) && answered == number) return "";
    return lives_in + "#" + std::to_string(answered);
  }

  // "o/r, issues page 3: issues 250, comments 30, requests 5, rate limit 4990 left, rate-limit waits 1"
  void report(const std::string& kind, int pages, const std::string& remaining) {
    if (!progress_) return;
    progress_(repo_ + ", " + kind + " page " + std::to_string(pages) + ": issues " +
              std::to_string(summary_.issues) + ", comments " + std::to_string(summary_.comments) +
              ", requests " + std::to_string(api_.stats().requests) +
              (remaining.empty() ? "" : ", rate limit " + remaining + " left") + ", rate-limit waits " +
              std::to_string(api_.stats().rate_limit_waits));
  }

  datasets::Database& db_;
  GitHubApi& api_;
  MineSummary& summary_;
  const MineOptions& options_;
  const std::function<void(const std::string&)>& progress_;
  std::string repo_;  // the current name, which a rename noticed on the way changes
  int64_t repo_id_ = 0;
  std::set<std::pair<int64_t, std::string>> seen_pull_requests_;  // this listing's, counted once
};

// A timeline event's field as text; the event kinds differ in shape, so a field that is absent, null or
// not a string reads as empty.
std::string timeline_text(const json& object, const char* name) {
  return object.is_object() && object.contains(name) && object.at(name).is_string()
             ? object.at(name).get<std::string>()
             : std::string();
}

// Whether a timeline answered at `url` (after redirects) is `issue`'s: its path names the issue's repository,
// by its name in any case or by GitHub's id (`repository_id`, the form of GitHub's redirects after a rename),
// and the issue's number.
bool is_timeline_of(const std::string& url, const datasets::IssueRecord& issue,
                    std::optional<int64_t> repository_id) {
  const std::string path = url.substr(0, url.find_first_of("?#"));
  const std::string tail = "/issues/" + std::to_string(issue.number) + "/timeline";
  if (path.size() < tail.size() || path.compare(path.size() - tail.size(), tail.size(), tail) != 0)
    return false;
  const std::string head = path.substr(0, path.size() - tail.size());
  if (repository_id && head.ends_with("/repositories/" + std::to_string(*repository_id))) return true;
  return head.ends_with("/repos/" + repository_in_url(url)) &&
         common::same_repository_name(repository_in_url(url), issue.repo);
}

// One issue's timeline events (event, reference) and their raw objects; throws faultline::Error when GitHub
// has it no longer (404, 410), answers what no timeline is, or redirects to another issue's.
void fetch_timeline(GitHubApi& api, const datasets::IssueRecord& issue, std::optional<int64_t> repository_id,
                    std::vector<std::pair<std::string, std::string>>& events, std::vector<std::string>& raw) {
  std::string url = api.base_url() + "/repos/" + issue.repo + "/issues/" + std::to_string(issue.number) +
                    "/timeline?per_page=100";
  std::set<std::string> requested;
  while (!url.empty()) {
    if (!requested.insert(url).second)
      throw Error("the timeline's Link leads back to a page already read (" + url + ")");
    Page page = api.get(url, std::nullopt, true);
    if (page.status == 404 || page.status == 410) throw Error(missing_reason(page.status));
    // A redirect to another repository's or issue's timeline (a transfer, or a misbehaving server) would
    // store its events as this issue's.
    if (page.redirected && !is_timeline_of(page.url, issue, repository_id))
      throw Error("redirected to " + page.url + ", not this issue's timeline (transferred?); none stored");
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
}

// Timeline events of every issue kept in the sample: cross-references and commits, the evidence of fixes.
// One issue's failure (deleted since it was mined, a malformed answer) keeps its stored events and is
// listed; the others are still fetched.
void mine_timelines(datasets::Database& db, GitHubApi& api, MineSummary& summary, const MineOptions& options,
                    const std::function<void(const std::string&)>& progress) {
  std::vector<int64_t> sampled;
  for (const auto& entry : datasets::load_sample(db, options.sample))
    if (entry.status == "sampled") sampled.push_back(entry.issue_id);
  for (size_t i = 0; i < sampled.size(); ++i) {
    auto issue = datasets::load_issue(db, sampled[i]);
    std::vector<std::pair<std::string, std::string>> events;
    std::vector<std::string> raw;
    bool fetched = true;
    try {
      const auto repository = datasets::find_repository(db, issue.repo);
      fetch_timeline(api, issue, repository ? datasets::github_id_of(db, *repository) : std::nullopt, events,
                     raw);
    } catch (const Error& e) {
      summary.timelines_unavailable.push_back({issue.key(), e.what()});
      fetched = false;
    }
    if (fetched) {  // outside the try: a store that cannot be written stops the run, it is no lost timeline
      db.transaction([&] { datasets::replace_timeline(db, issue.id, events, raw); });
      summary.timeline_events += static_cast<long>(events.size());
    }
    // Said once the issue is done, so the last line says where the run ended.
    if (progress)
      progress("timelines: " + issue.key() + ", " + std::to_string(i + 1) + " of " +
               std::to_string(sampled.size()) + " sampled issues; events " +
               std::to_string(summary.timeline_events) + ", requests " +
               std::to_string(api.stats().requests));
  }
}

}  // namespace

MineSummary mine(datasets::Database& db, const MineOptions& options,
                 const std::function<void(const std::string&)>& progress) {
  if (options.repositories.empty())
    throw Error("mine: name repositories with --repo OWNER/NAME or use --study");
  for (const auto& repo : options.repositories) common::require_repository_name(repo, "mine");
  if (options.timeline) {  // checked before any request: a sample misnamed fetched nothing, and said nothing
    try {
      datasets::resolve_sample(db, options.sample);
    } catch (const Error& e) {
      throw Error(std::string("mine --timeline: ") + e.what());
    }
  }
  MineSummary summary;
  GitHubApi api(options.api);
  db.keep_temporary_files_in_memory();
  datasets::OutdatedResultCounter outdated(db);
  try {
    // One repository's error (gone, a malformed page) stops that repository, not the others; a spent
    // request budget or a wait over --max-wait stops the run (below).
    for (const auto& repo : options.repositories) {
      try {
        RepositoryMiner(db, api, summary, options, progress).run(repo);
      } catch (const Error& e) {
        summary.failed.push_back({repo, e.what()});
      }
    }
    if (options.timeline) mine_timelines(db, api, summary, options, progress);
    // A --verify run is over: the next asks for every unaccounted number again, of every repository it named
    // (one that failed too); a run without --verify leaves a stopped verify to go on. Until then a rerun of a
    // stopped run takes the verify of a repository that ended as it was, rather than ask for its missing
    // numbers again before it reaches the one it stopped in.
    if (options.verify)
      db.transaction([&] {
        for (const auto& repo : options.repositories) {
          const auto id =
              datasets::find_repository(db, datasets::current_repository_name(db, repo).value_or(repo));
          if (id) datasets::clear_verify_progress(db, *id);
        }
      });
  } catch (const RequestBudgetExhausted& spent) {
    summary.stopped_early = true;
    summary.stop_reason = spent.while_retrying.empty()
                              ? "stopped at --max-requests; run the same command again to continue"
                              : "stopped at --max-requests while retrying a request that failed (" +
                                    common::one_line(spent.while_retrying) +
                                    "); run the same command again to continue";
  } catch (const WaitTooLong& w) {
    summary.stopped_early = true;
    // A reset or Retry-After past the year 9999 has no date to print (it printed year 1623969461).
    constexpr double kLastPrintableMoment = 253402300799;  // 9999-12-31T23:59:59Z
    const bool printable = w.resume_epoch >= 0 && w.resume_epoch <= kLastPrintableMoment;
    summary.stop_reason = "stopped instead of waiting " +
                          (printable ? std::to_string(static_cast<long long>(std::ceil(w.seconds))) + " s"
                                     : std::string("longer")) +
                          " for " + w.why + " (over --max-wait); run the same command again " +
                          (printable ? "after " + common::format_iso8601(std::llround(w.resume_epoch))
                                     : std::string("later: GitHub named no time before the year 10000"));
  }
  summary.stats = api.stats();
  summary.outdated = outdated.dropped();
  return summary;
}

nlohmann::json mine_summary_json(const MineSummary& s) {
  json j = {{"requests", s.stats.requests},
            {"not_modified", s.stats.not_modified},
            {"issues", s.issues},
            {"pull_requests_skipped", s.pull_requests_skipped},
            {"comments", s.comments},
            {"retries", s.stats.retries},
            {"rate_limit_waits", s.stats.rate_limit_waits},
            {"timeline_events", s.timeline_events},
            {"stopped_early", s.stopped_early}};
  j.update(datasets::outdated_json(s.outdated));
  if (s.stopped_early) j["stop_reason"] = s.stop_reason;
  if (!s.timelines_unavailable.empty()) {
    j["timelines_unavailable"] = json::array();
    for (const auto& [issue, why] : s.timelines_unavailable)
      j["timelines_unavailable"].push_back({{"issue", issue}, {"reason", why}});
  }
  if (!s.failed.empty()) {
    j["failed"] = json::array();
    for (const auto& [repo, error] : s.failed) j["failed"].push_back({{"repo", repo}, {"error", error}});
  }
  if (!s.renamed.empty()) {
    j["renamed"] = json::array();
    for (const auto& [from, to] : s.renamed) j["renamed"].push_back({{"from", from}, {"to", to}});
  }
  for (const auto& v : s.verified) {
    json missing = json::array();
    for (const auto& [number, why] : v.missing) missing.push_back({{"number", number}, {"reason", why}});
    j["verify"].push_back({{"repo", v.repo},
                           {"highest_number", v.highest_number},
                           {"issues", v.issues},
                           {"pull_requests", v.pull_requests},
                           {"fetched", v.fetched},
                           {"recovered", v.recovered},
                           {"missing", missing}});
  }
  return j;
}

}  // namespace faultline::miner
