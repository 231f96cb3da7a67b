// SQL for the mined-data tables: repositories, issues, issue labels and comments.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "datasets/store/database.hpp"
#include "datasets/store/issue_record.hpp"

namespace faultline::datasets {

int64_t ensure_repository(Database& db, const std::string& full_name);
std::optional<int64_t> find_repository(Database& db, const std::string& full_name);
// The repository stored under `name` or renamed from it (an alias: rename_repository), in any case.
std::optional<int64_t> find_known_repository(Database& db, const std::string& name);

// Inserts or updates by (repo, number); replaces the issue's labels, touching only those that changed (a
// changed label outdates the issue's screening, migration 13). Returns the row id and whether it was
// new. A record under a name its repository had before a rename (an alias: rename_repository) is stored
// under the current name.
struct UpsertResult {
  int64_t id;
  bool inserted;
};
UpsertResult upsert_issue(Database& db, const IssueRecord& issue);

// upsert_issue for many issues: its statements are prepared once and repository ids remembered, so an
// import of N issues compiles no SQL per issue. Lives no longer than the transaction it writes in.
class IssueWriter {
 public:
  explicit IssueWriter(Database& db);
  UpsertResult upsert(const IssueRecord& issue);

 private:
  int64_t repository_id(const std::string& full_name);

  Database& db_;
  Statement insert_repository_, find_issue_, update_issue_, insert_issue_, stored_labels_, remove_label_,
      add_label_;
  std::unordered_map<std::string, int64_t> repositories_;
};

// The issue `number` of the repository stored under `repo` or renamed from it, in any case.
std::optional<int64_t> find_issue(Database& db, const std::string& repo, int64_t number);
// Like find_issue, but throws a clear error naming `where` when the issue is not in the store.
int64_t require_issue(Database& db, const std::string& repo, int64_t number, const std::string& where);

std::vector<IssueRecord> load_issues(Database& db);
IssueRecord load_issue(Database& db, int64_t id);
int64_t count_issues(Database& db);
int64_t count_issues_in(Database& db, int64_t repository_id);
// What the store holds of a mined issue or comment: its updated_at and the API object as it came (empty
// for a record imported from a snapshot), so that the miner skips what it already holds as it is and never
// writes an older version over a newer one.
struct StoredVersion {
  std::string updated;
  std::string raw_json;
};
std::optional<StoredVersion> stored_issue_version(Database& db, int64_t repository_id, int64_t number);
std::optional<StoredVersion> stored_comment_version(Database& db, int64_t comment_id);
// The mined issues (those holding their API object) of a repository with the highest numbers, at most
// `limit`, highest first: number and API object.
std::vector<std::pair<int64_t, std::string>> newest_mined_issues(Database& db, int64_t repository_id,
                                                                 int limit);

struct CommentRecord {
  int64_t id = 0;  // GitHub's comment id
  std::string repo;
  int64_t issue_number = 0;
  std::string author;
  std::string created;
  std::string updated;
  std::string body;
  std::optional<std::string> raw_json;
};
void upsert_comment(Database& db, const CommentRecord& comment);
// upsert_comment for many comments, its statement prepared once (with migration 13's triggers compiled
// into it) and repository ids remembered. Lives no longer than the transaction it writes in.
class CommentWriter {
 public:
  explicit CommentWriter(Database& db);
  void upsert(const CommentRecord& comment);

 private:
  Database& db_;
  Statement upsert_;
  std::unordered_map<std::string, int64_t> repositories_;
};
// How much of a mined issue's comments classify reads as its discussion.
constexpr size_t kCommentDiscussionBytes = 4000;

// Mined issues carry their discussion as comments: joins each issue's comment bodies, oldest first, into
// the discussion of issues that have none (imported corpus records keep their own). At most `limit` bytes
// each.
void attach_comment_discussions(Database& db, std::vector<IssueRecord>& issues,
                                size_t limit = kCommentDiscussionBytes);
// The stored issue `id`'s comments joined as attach_comment_discussions joins them (oldest first, at most
// `limit` bytes), read by the comments index: "" when it has none.
std::string comment_discussion(Database& db, int64_t id, size_t limit = kCommentDiscussionBytes);
// load_issue with its comments as discussion when it has none of its own: the issue as classify reads it.
IssueRecord load_issue_as_classified(Database& db, int64_t id);

// Every issue of the store, in batches of at most `batch` by row id, each issue with its labels and (as
// attach_comment_discussions gives) its comments as discussion: memory for one batch, not for the store.
void for_each_issue_batch(Database& db, size_t batch,
                          const std::function<void(std::vector<IssueRecord>&)>& each,
                          size_t discussion_limit = kCommentDiscussionBytes);
// for_each_issue_batch without the issues' texts: id, repository, number, URL, state, dates, labels, title
// and scope only (body, error lines, environment, discussion and API object left empty, comments unread):
// what screening, the funnel and reports read, a small part of a store's bytes.
void for_each_issue_headline_batch(Database& db, size_t batch,
                                   const std::function<void(std::vector<IssueRecord>&)>& each);
int64_t count_comments(Database& db);

}  // namespace faultline::datasets
