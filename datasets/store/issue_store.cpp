#include "datasets/store/issue_store.hpp"

#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "common/error.hpp"
#include "common/utf8.hpp"

namespace faultline::datasets {

// GitHub's repository names ignore case (NVIDIA/cutlass is nvidia/cutlass), and they are ASCII, which is
// what SQLite's NOCASE folds: every lookup of a name matches that way. A store written before may hold one
// repository under two spellings: the lookup takes the row spelled exactly as asked, else the older.
std::optional<int64_t> find_repository(Database& db, const std::string& full_name) {
  Statement s = db.prepare(
      "SELECT id FROM repositories WHERE full_name = ?1 COLLATE NOCASE ORDER BY full_name = ?1 DESC, id");
  s.bind_all(full_name);
  if (s.step()) return s.integer(0);
  return std::nullopt;
}

std::optional<int64_t> find_known_repository(Database& db, const std::string& name) {
  // Repositories before aliases, each as find_repository orders them.
  Statement s = db.prepare(
      "SELECT id FROM (SELECT id, 0 AS alias, full_name = ?1 AS exact FROM repositories "
      "WHERE full_name = ?1 COLLATE NOCASE UNION ALL SELECT repository_id, 1, name = ?1 "
      "FROM repository_aliases WHERE name = ?1 COLLATE NOCASE) ORDER BY alias, exact DESC, id");
  s.bind_all(name);
  if (s.step()) return s.integer(0);
  return std::nullopt;
}

int64_t ensure_repository(Database& db, const std::string& full_name) {
  if (auto id = find_repository(db, full_name)) return *id;
  db.prepare("INSERT INTO repositories(full_name) VALUES (?)").bind_all(full_name).run();
  return db.last_insert_id();
}

std::optional<int64_t> find_issue(Database& db, const std::string& repo, int64_t number) {
  // Among the repositories a name may mean that hold the number, ordered as find_known_repository orders
  // them all: one stored under the name before one renamed from it, the exact spelling first, then the
  // older. An issue is stored under its repository's current name (upsert_issue), so a former one finds it
  // too. Unlike upsert_issue, which takes the first repository whatever it holds, a lookup passes over one
  // without the number (a store written before names were matched in any case may hold one repository in
  // two rows).
  Statement s = db.prepare(
      "SELECT i.id FROM issues i JOIN (SELECT id AS repository_id, 0 AS alias, full_name = ?1 AS exact "
      "FROM repositories WHERE full_name = ?1 COLLATE NOCASE UNION ALL SELECT repository_id, 1, name = ?1 "
      "FROM repository_aliases WHERE name = ?1 COLLATE NOCASE) k ON k.repository_id = i.repository_id "
      "WHERE i.number = ?2 ORDER BY k.alias, k.exact DESC, k.repository_id");
  s.bind_all(repo, number);
  if (s.step()) return s.integer(0);
  return std::nullopt;
}

int64_t require_issue(Database& db, const std::string& repo, int64_t number, const std::string& where) {
  if (auto id = find_issue(db, repo, number)) return *id;
  throw Error(where + ": issue " + repo + "#" + std::to_string(number) +
              " is not in the store (import or mine it first)");
}

UpsertResult upsert_issue(Database& db, const IssueRecord& issue) { return IssueWriter(db).upsert(issue); }

IssueWriter::IssueWriter(Database& db)
    : db_(db),
      insert_repository_(db.prepare("INSERT INTO repositories(full_name) VALUES (?)")),
      find_issue_(db.prepare("SELECT id FROM issues WHERE repository_id = ? AND number = ?")),
      // A record without a scope decision (a mined one) keeps the decision and reason a person recorded.
      update_issue_(db.prepare(
          "UPDATE issues SET url=?, state=?, created=?, updated=?, title=?, body=?, error_lines=?, env=?, "
          "discussion=?, scope=COALESCE(?, scope), "
          "scope_reason=CASE WHEN ? IS NULL THEN scope_reason ELSE ? END, "
          "raw_json=COALESCE(?, raw_json) WHERE id=?")),
      insert_issue_(db.prepare(
          "INSERT INTO issues(repository_id, number, url, state, created, updated, title, body, error_lines, "
          "env, discussion, scope, scope_reason, raw_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")),
      stored_labels_(db.prepare("SELECT name FROM issue_labels WHERE issue_id = ?")),
      remove_label_(db.prepare("DELETE FROM issue_labels WHERE issue_id = ? AND name = ?")),
      add_label_(db.prepare("INSERT OR IGNORE INTO issue_labels(issue_id, name) VALUES (?, ?)")) {}

int64_t IssueWriter::repository_id(const std::string& full_name) {
  if (auto known = repositories_.find(full_name); known != repositories_.end()) return known->second;
  // A name the repository had before a rename is an alias of it: an old snapshot's records join it. Looked
  // up once per name (remembered below), so the statement is prepared then.
  std::optional<int64_t> id = find_known_repository(db_, full_name);
  if (!id) {
    insert_repository_.bind_all(full_name).run();
    id = db_.last_insert_id();
  }
  return repositories_[full_name] = *id;
}

UpsertResult IssueWriter::upsert(const IssueRecord& issue) {
  int64_t repo_id = repository_id(issue.repo);
  find_issue_.bind_all(repo_id, issue.number);
  std::optional<int64_t> existing;
  if (find_issue_.step()) existing = find_issue_.integer(0);
  find_issue_.reset();
  std::string error_lines = nlohmann::json(issue.error_lines).dump();
  if (existing) {
    update_issue_
        .bind_all(issue.url, issue.state, issue.created, issue.updated, issue.title, issue.body, error_lines,
                  issue.env, issue.discussion, issue.scope, issue.scope, issue.scope_reason, issue.raw_json,
                  *existing)
        .run();
  } else {
    insert_issue_
        .bind_all(repo_id, issue.number, issue.url, issue.state, issue.created, issue.updated, issue.title,
                  issue.body, error_lines, issue.env, issue.discussion, issue.scope, issue.scope_reason,
                  issue.raw_json)
        .run();
  }
  int64_t id = existing ? *existing : db_.last_insert_id();
  std::set<std::string> stored, wanted(issue.labels.begin(), issue.labels.end());
  stored_labels_.bind_all(id);
  while (stored_labels_.step()) stored.insert(stored_labels_.text(0));
  stored_labels_.reset();
  for (const auto& label : stored) {
    if (!wanted.count(label)) remove_label_.bind_all(id, label).run();
  }
  for (const auto& label : wanted) {
    if (!stored.count(label)) add_label_.bind_all(id, label).run();
  }
  return {id, !existing};
}

namespace {

const char* const kIssueColumns =
    "SELECT i.id, r.full_name, i.number, i.url, i.state, i.created, i.updated, i.title, i.body, "
    "i.error_lines, "
    "i.env, i.discussion, i.scope, i.scope_reason, i.raw_json FROM issues i "
    "JOIN repositories r ON r.id = i.repository_id ";

// Columns 0–7, the same in kIssueColumns and kHeadlineColumns.
IssueRecord read_headline_start(Statement& s) {
  IssueRecord r;
  r.id = s.integer(0);
  r.repo = s.text(1);
  r.number = s.integer(2);
  r.url = s.text(3);
  r.state = s.text(4);
  r.created = s.text(5);
  r.updated = s.text(6);
  r.title = s.text(7);
  return r;
}

// The scope decision and its reason, in columns `at` and `at` + 1.
void read_scope(Statement& s, int at, IssueRecord& r) {
  if (!s.is_null(at)) r.scope = s.text(at);
  if (!s.is_null(at + 1)) r.scope_reason = s.text(at + 1);
}

IssueRecord read_issue(Statement& s) {
  IssueRecord r = read_headline_start(s);
  r.body = s.text(8);
  r.error_lines = nlohmann::json::parse(s.text(9)).get<std::vector<std::string>>();
  r.env = s.text(10);
  r.discussion = s.text(11);
  read_scope(s, 12, r);
  if (!s.is_null(14)) r.raw_json = s.text(14);
  return r;
}

// Adds one comment to a discussion being built from comments, which stays within `limit` bytes (the
// newline between comments counted) and is cut where no UTF-8 character splits.
void append_comment(std::string& text, const std::string& body, size_t limit) {
  const size_t separator = text.empty() ? 0 : 1;
  if (text.size() + separator >= limit) return;
  if (separator) text += '\n';
  text.append(body, 0, common::utf8_prefix_length(body, limit - text.size()));
}

void attach_labels(Database& db, std::vector<IssueRecord>& issues) {
  Statement s = db.prepare("SELECT issue_id, name FROM issue_labels ORDER BY issue_id, name");
  std::unordered_map<int64_t, std::vector<std::string>> by_issue;
  while (s.step()) by_issue[s.integer(0)].push_back(s.text(1));
  for (auto& issue : issues) {
    auto it = by_issue.find(issue.id);
    if (it != by_issue.end()) issue.labels = it->second;
  }
}

}  // namespace

std::vector<IssueRecord> load_issues(Database& db) {
  Statement s = db.prepare(std::string(kIssueColumns) + "ORDER BY r.full_name, i.number");
  std::vector<IssueRecord> issues;
  while (s.step()) issues.push_back(read_issue(s));
  attach_labels(db, issues);
  return issues;
}

IssueRecord load_issue(Database& db, int64_t id) {
  Statement s = db.prepare(std::string(kIssueColumns) + "WHERE i.id = ?");
  s.bind_all(id);
  if (!s.step()) throw Error("issue row " + std::to_string(id) + " is not in the store");
  std::vector<IssueRecord> one{read_issue(s)};
  attach_labels(db, one);
  return one.front();
}

int64_t count_issues(Database& db) {
  Statement s = db.prepare("SELECT COUNT(*) FROM issues");
  s.step();
  return s.integer(0);
}

void upsert_comment(Database& db, const CommentRecord& c) { CommentWriter(db).upsert(c); }

CommentWriter::CommentWriter(Database& db)
    : db_(db),
      upsert_(db.prepare(
          "INSERT INTO comments(id, repository_id, issue_number, author, created, updated, body, raw_json) "
          "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET repository_id=excluded.repository_id, "
          "issue_number=excluded.issue_number, author=excluded.author, created=excluded.created, "
          "updated=excluded.updated, body=excluded.body, raw_json=excluded.raw_json")) {}

void CommentWriter::upsert(const CommentRecord& c) {
  auto known = repositories_.find(c.repo);
  if (known == repositories_.end())
    known = repositories_.emplace(c.repo, ensure_repository(db_, c.repo)).first;
  upsert_.bind_all(c.id, known->second, c.issue_number, c.author, c.created, c.updated, c.body, c.raw_json)
      .run();
}

void attach_comment_discussions(Database& db, std::vector<IssueRecord>& issues, size_t limit) {
  Statement s = db.prepare(
      "SELECT r.full_name, c.issue_number, c.body FROM comments c JOIN repositories r ON r.id = "
      "c.repository_id "
      "ORDER BY c.repository_id, c.issue_number, c.created, c.id");
  std::unordered_map<std::string, std::string> by_issue;
  while (s.step()) append_comment(by_issue[s.text(0) + "#" + std::to_string(s.integer(1))], s.text(2), limit);
  for (auto& issue : issues) {
    if (!issue.discussion.empty()) continue;
    auto it = by_issue.find(issue.key());
    if (it != by_issue.end()) {
      issue.discussion = it->second;
      issue.discussion_is_comments = true;
    }
  }
}

std::string comment_discussion(Database& db, int64_t id, size_t limit) {
  Statement s = db.prepare(
      "SELECT c.body FROM issues i JOIN comments c ON c.repository_id = i.repository_id AND c.issue_number = "
      "i.number WHERE i.id = ? ORDER BY c.created, c.id");
  s.bind_all(id);
  std::string text;
  while (s.step()) append_comment(text, s.text(0), limit);
  return text;
}

IssueRecord load_issue_as_classified(Database& db, int64_t id) {
  IssueRecord issue = load_issue(db, id);
  if (issue.discussion.empty()) {
    issue.discussion = comment_discussion(db, id);
    issue.discussion_is_comments = !issue.discussion.empty();
  }
  return issue;
}

namespace {

const char* const kHeadlineColumns =
    "SELECT i.id, r.full_name, i.number, i.url, i.state, i.created, i.updated, i.title, i.scope, "
    "i.scope_reason FROM issues i JOIN repositories r ON r.id = i.repository_id ";

IssueRecord read_headline(Statement& s) {
  IssueRecord r = read_headline_start(s);
  read_scope(s, 8, r);
  return r;
}

// Pages through the issues by row id, `batch` at a time, reading `columns` with `read` and each page's
// labels; `complete(issues, index, first, last)` may add more before `each` sees the page.
template <typename Read, typename Complete>
void page_issues(Database& db, const char* columns, size_t batch, Read read, Complete complete,
                 const std::function<void(std::vector<IssueRecord>&)>& each) {
  Statement page = db.prepare(std::string(columns) + "WHERE i.id > ? ORDER BY i.id LIMIT ?");
  Statement labels = db.prepare(
      "SELECT issue_id, name FROM issue_labels WHERE issue_id BETWEEN ? AND ? ORDER BY issue_id, name");
  for (int64_t after = 0;;) {
    std::vector<IssueRecord> issues;
    page.bind_all(after, static_cast<int64_t>(batch));
    while (page.step()) issues.push_back(read(page));
    page.reset();
    if (issues.empty()) return;
    std::unordered_map<int64_t, size_t> index;
    for (size_t i = 0; i < issues.size(); ++i) index[issues[i].id] = i;
    int64_t first = issues.front().id, last = issues.back().id;
    labels.bind_all(first, last);
    while (labels.step()) issues[index.at(labels.integer(0))].labels.push_back(labels.text(1));
    labels.reset();
    complete(issues, index, first, last);
    each(issues);
    after = last;
  }
}

}  // namespace

void for_each_issue_batch(Database& db, size_t batch,
                          const std::function<void(std::vector<IssueRecord>&)>& each,
                          size_t discussion_limit) {
  Statement comments = db.prepare(
      "SELECT i.id, c.body FROM comments c JOIN issues i ON i.repository_id = c.repository_id AND "
      "i.number = c.issue_number WHERE i.id BETWEEN ? AND ? ORDER BY i.id, c.created, c.id");
  auto attach_comments = [&](std::vector<IssueRecord>& issues,
                             const std::unordered_map<int64_t, size_t>& index, int64_t first, int64_t last) {
    std::unordered_map<int64_t, std::string> from_comments;
    comments.bind_all(first, last);
    while (comments.step())
      append_comment(from_comments[comments.integer(0)], comments.text(1), discussion_limit);
    comments.reset();
    for (auto& [id, text] : from_comments) {
      auto& issue = issues[index.at(id)];
      if (issue.discussion.empty()) {
        issue.discussion = std::move(text);
        issue.discussion_is_comments = true;
      }
    }
  };
  page_issues(db, kIssueColumns, batch, read_issue, attach_comments, each);
}

void for_each_issue_headline_batch(Database& db, size_t batch,
                                   const std::function<void(std::vector<IssueRecord>&)>& each) {
  auto nothing_more = [](std::vector<IssueRecord>&, const std::unordered_map<int64_t, size_t>&, int64_t,
                         int64_t) {};
  page_issues(db, kHeadlineColumns, batch, read_headline, nothing_more, each);
}

int64_t count_comments(Database& db) {
  Statement s = db.prepare("SELECT COUNT(*) FROM comments");
  s.step();
  return s.integer(0);
}

int64_t count_issues_in(Database& db, int64_t repository_id) {
  Statement s = db.prepare("SELECT COUNT(*) FROM issues WHERE repository_id = ?");
  s.bind_all(repository_id);
  s.step();
  return s.integer(0);
}

std::optional<StoredVersion> stored_issue_version(Database& db, int64_t repository_id, int64_t number) {
  Statement s =
      db.prepare("SELECT updated, COALESCE(raw_json, '') FROM issues WHERE repository_id = ? AND number = ?");
  s.bind_all(repository_id, number);
  if (!s.step()) return std::nullopt;
  return StoredVersion{s.text(0), s.text(1)};
}

std::vector<std::pair<int64_t, std::string>> newest_mined_issues(Database& db, int64_t repository_id,
                                                                 int limit) {
  Statement s = db.prepare(
      "SELECT number, raw_json FROM issues WHERE repository_id = ? AND raw_json IS NOT NULL "
      "ORDER BY number DESC LIMIT ?");
  s.bind_all(repository_id, limit);
  std::vector<std::pair<int64_t, std::string>> out;
  while (s.step()) out.push_back({s.integer(0), s.text(1)});
  return out;
}

std::optional<StoredVersion> stored_comment_version(Database& db, int64_t comment_id) {
  Statement s = db.prepare("SELECT updated, COALESCE(raw_json, '') FROM comments WHERE id = ?");
  s.bind_all(comment_id);
  if (!s.step()) return std::nullopt;
  return StoredVersion{s.text(0), s.text(1)};
}

}  // namespace faultline::datasets
