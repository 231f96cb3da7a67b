#include <gtest/gtest.h>

#include <map>

#include "common/error.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/mining_store.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;

namespace {

IssueRecord mined(const std::string& title) {
  IssueRecord r;
  r.repo = "Dao-AILab/flash-attention";
  r.number = 282;
  r.url = "https://github.com/Dao-AILab/flash-attention/issues/282";
  r.state = "closed";
  r.title = title;
  return r;  // a mined record carries no scope decision
}

IssueRecord closed(const std::string& repo, int64_t number, const std::string& title) {
  IssueRecord r;
  r.repo = repo;
  r.number = number;
  r.state = "closed";
  r.title = title;
  return r;
}

IssueRecord stored(Database& db) {
  for (auto& r : load_issues(db)) return r;
  return {};
}

}  // namespace

TEST(IssueUpsert, AMinedRecordKeepsTheScopeDecisionAPersonRecorded) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  IssueRecord imported = mined("causal mask wrong");
  imported.scope = "out";
  imported.scope_reason = "a question about the Python API, no failure";
  upsert_issue(db, imported);
  upsert_issue(db, mined("causal mask wrong in the last block"));
  IssueRecord after = stored(db);
  EXPECT_EQ(after.title, "causal mask wrong in the last block");  // mined fields are refreshed
  EXPECT_EQ(after.scope, std::optional<std::string>("out"));
  EXPECT_EQ(after.scope_reason, std::optional<std::string>("a question about the Python API, no failure"));
}

TEST(IssueUpsert, ARecordWithAScopeDecisionReplacesTheOldDecision) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  IssueRecord first = mined("causal mask wrong");
  first.scope = "out";
  first.scope_reason = "question";
  upsert_issue(db, first);
  IssueRecord second = mined("causal mask wrong");
  second.scope = "in";
  upsert_issue(db, second);
  IssueRecord after = stored(db);
  EXPECT_EQ(after.scope, std::optional<std::string>("in"));
  EXPECT_EQ(after.scope_reason, std::nullopt);
}

TEST(IssueBatches, EveryIssueComesOnceWithItsLabelsAndItsCommentsAsDiscussion) {
  // 5 issues in batches of 2 (3 batches). #2 has two comments and no discussion: it gets "first\nsecond"
  // (oldest first). #3 has its own discussion and a comment: it keeps its own. #4 carries two labels.
  faultline::testing::TempDir dir;
  Database db(dir.file("b.db"));
  for (int n = 1; n <= 5; ++n) {
    IssueRecord r;
    r.repo = "a/b";
    r.number = n;
    r.url = "u";
    r.state = "closed";
    r.title = "t" + std::to_string(n);
    if (n == 3) r.discussion = "own";
    if (n == 4) r.labels = {"bug", "cuda"};
    upsert_issue(db, r);
  }
  upsert_comment(db, {11, "a/b", 2, "x", "2024-01-02", "", "second", std::nullopt});
  upsert_comment(db, {10, "a/b", 2, "x", "2024-01-01", "", "first", std::nullopt});
  upsert_comment(db, {12, "a/b", 3, "x", "2024-01-01", "", "comment", std::nullopt});
  std::map<int64_t, IssueRecord> seen;
  int batches = 0;
  for_each_issue_batch(db, 2, [&](std::vector<IssueRecord>& batch) {
    ++batches;
    EXPECT_LE(batch.size(), 2u);
    for (auto& issue : batch) EXPECT_TRUE(seen.emplace(issue.number, issue).second) << issue.number;
  });
  EXPECT_EQ(batches, 3);
  ASSERT_EQ(seen.size(), 5u);
  EXPECT_EQ(seen[2].discussion, "first\nsecond");
  EXPECT_EQ(seen[3].discussion, "own");
  EXPECT_EQ(seen[4].labels, (std::vector<std::string>{"bug", "cuda"}));
  EXPECT_TRUE(seen[1].labels.empty());
  EXPECT_TRUE(seen[5].discussion.empty());
}

TEST(IssueUpsert, HeadlineBatchesCarryEverythingButTheTexts) {
  // 3 issues in batches of 2 (2 batches); #2 has a body, error lines, environment, discussion, a scope
  // decision, two labels and a comment: the headline keeps the labels and scope, and leaves every text empty.
  faultline::testing::TempDir dir;
  Database db(dir.file("h.db"));
  for (int n = 1; n <= 3; ++n) {
    IssueRecord r = mined("t" + std::to_string(n));
    r.number = n;
    r.created = "2024-01-0" + std::to_string(n);
    if (n == 2) {
      r.body = "body";
      r.error_lines = {"RuntimeError: x"};
      r.env = "CUDA 12";
      r.discussion = "talk";
      r.scope = "in";
      r.scope_reason = "a person said so";
      r.labels = {"bug", "cuda"};
    }
    upsert_issue(db, r);
  }
  upsert_comment(db, {10, "Dao-AILab/flash-attention", 2, "x", "2024-01-01", "", "comment", std::nullopt});
  std::map<int64_t, IssueRecord> seen;
  int batches = 0;
  for_each_issue_headline_batch(db, 2, [&](std::vector<IssueRecord>& batch) {
    ++batches;
    for (auto& issue : batch) EXPECT_TRUE(seen.emplace(issue.number, issue).second) << issue.number;
  });
  EXPECT_EQ(batches, 2);
  ASSERT_EQ(seen.size(), 3u);
  const IssueRecord& two = seen[2];
  EXPECT_EQ(two.repo, "Dao-AILab/flash-attention");
  EXPECT_EQ(two.url, "https://github.com/Dao-AILab/flash-attention/issues/282");
  EXPECT_EQ(two.state, "closed");
  EXPECT_EQ(two.created, "2024-01-02");
  EXPECT_EQ(two.title, "t2");
  EXPECT_EQ(two.scope, std::optional<std::string>("in"));
  EXPECT_EQ(two.scope_reason, std::optional<std::string>("a person said so"));
  EXPECT_EQ(two.labels, (std::vector<std::string>{"bug", "cuda"}));
  EXPECT_TRUE(two.body.empty());
  EXPECT_TRUE(two.error_lines.empty());
  EXPECT_TRUE(two.env.empty());
  EXPECT_TRUE(two.discussion.empty());
  EXPECT_FALSE(seen[1].scope.has_value());
  // The full reader of the same store does see the texts: the emptiness above is the headline's.
  for_each_issue_batch(db, 2, [&](std::vector<IssueRecord>& batch) {
    for (auto& issue : batch) {
      if (issue.number == 2) {
        EXPECT_EQ(issue.body, "body");
      }
    }
  });
}

TEST(IssueBatches, ADiscussionFromCommentsStaysWithinItsLimitAndSplitsNoCharacter) {
  // Limit 6: "abc" (3 bytes), then "\n" and "xé" (x, C3 A9): 2 bytes are left, and the cut falls before é's
  // lead byte: "abc\nx" (5 bytes). "zz" would need a newline and a byte more than the 1 left: nothing more.
  faultline::testing::TempDir dir;
  Database db(dir.file("b.db"));
  upsert_issue(db, closed("a/b", 1, "t"));
  upsert_comment(db, {10, "a/b", 1, "x", "2024-01-01", "", "abc", std::nullopt});
  upsert_comment(db, {11, "a/b", 1, "x", "2024-01-02", "", "x\xC3\xA9", std::nullopt});
  upsert_comment(db, {12, "a/b", 1, "x", "2024-01-03", "", "zz", std::nullopt});
  std::string batched;
  for_each_issue_batch(
      db, 10, [&](std::vector<IssueRecord>& batch) { batched = batch.at(0).discussion; }, 6);
  EXPECT_EQ(batched, "abc\nx");
  std::vector<IssueRecord> issues = load_issues(db);
  attach_comment_discussions(db, issues, 6);
  EXPECT_EQ(issues.at(0).discussion, "abc\nx");
}

TEST(IssueUpsert, ARecordUnderANameTheRepositoryHadBeforeARenameJoinsIt) {
  // o/r is renamed o/new: a record of o/r#1 (an older snapshot) updates o/new#1, one of o/r#2 is added to
  // o/new; no second repository appears. A name that was never the repository's is one of its own.
  faultline::testing::TempDir dir;
  Database db(dir.file("r.db"));
  IssueRecord r = closed("o/r", 1, "before");
  upsert_issue(db, r);
  rename_repository(db, "o/r", "o/new");
  r.title = "after";
  EXPECT_FALSE(upsert_issue(db, r).inserted);
  r.number = 2;
  EXPECT_TRUE(upsert_issue(db, r).inserted);
  EXPECT_EQ(count_issues(db), 2);
  for (const IssueRecord& stored : load_issues(db)) EXPECT_EQ(stored.repo, "o/new") << stored.number;
  EXPECT_EQ(load_issues(db).at(0).title, "after");
  // Looked up under the former name, in any case, an issue is found where the record went.
  ASSERT_TRUE(find_issue(db, "o/new", 2));
  EXPECT_EQ(find_issue(db, "o/r", 1), find_issue(db, "o/new", 1));
  EXPECT_EQ(find_issue(db, "O/R", 2), find_issue(db, "o/new", 2));
  EXPECT_FALSE(find_issue(db, "o/r", 3));
  r.repo = "o/other";
  upsert_issue(db, r);
  EXPECT_TRUE(find_repository(db, "o/other"));
}

// GitHub's repository names ignore case: a record or a lookup under another spelling is the same
// repository, which keeps the spelling it was first stored with until a rename gives it GitHub's.
TEST(IssueUpsert, ANameSpelledInAnotherCaseIsTheSameRepository) {
  faultline::testing::TempDir dir;
  Database db(dir.file("c.db"));
  auto repositories = [&] {
    Statement s = db.prepare("SELECT COUNT(*) FROM repositories");
    s.step();
    return s.integer(0);
  };
  upsert_issue(db, closed("nvidia/cutlass", 1, "first"));
  IssueRecord again = closed("NVIDIA/Cutlass", 1, "again");
  EXPECT_FALSE(upsert_issue(db, again).inserted);
  again.number = 2;
  EXPECT_TRUE(upsert_issue(db, again).inserted);
  EXPECT_EQ(repositories(), 1);
  ASSERT_TRUE(find_repository(db, "NVIDIA/CUTLASS"));
  EXPECT_EQ(find_repository(db, "NVIDIA/CUTLASS"), find_repository(db, "nvidia/cutlass"));
  EXPECT_TRUE(find_issue(db, "Nvidia/Cutlass", 2));
  for (const IssueRecord& stored : load_issues(db)) EXPECT_EQ(stored.repo, "nvidia/cutlass") << stored.number;

  // The miner learns GitHub's spelling: the row takes it, with no alias and no error.
  rename_repository(db, "nvidia/cutlass", "NVIDIA/cutlass");
  EXPECT_EQ(repositories(), 1);
  EXPECT_EQ(load_issues(db).at(0).repo, "NVIDIA/cutlass");
  Statement aliases = db.prepare("SELECT COUNT(*) FROM repository_aliases");
  aliases.step();
  EXPECT_EQ(aliases.integer(0), 0);
  EXPECT_EQ(current_repository_name(db, "nvidia/CUTLASS"), "NVIDIA/cutlass");

  // A real rename keeps the old name as an alias, found in any case too.
  rename_repository(db, "NVIDIA/cutlass", "NVIDIA/cutlass-next");
  again.repo = "nvidia/CUTLASS";
  again.number = 3;
  EXPECT_TRUE(upsert_issue(db, again).inserted);
  EXPECT_EQ(repositories(), 1);
  EXPECT_EQ(current_repository_name(db, "NVIDIA/CUTLASS"), "NVIDIA/cutlass-next");

  // A name not stored yet is stored under GitHub's spelling, as a rename stores its new name (the miner
  // then looks it up).
  rename_repository(db, "triton-lang/triton", "Triton-Lang/Triton");
  EXPECT_EQ(current_repository_name(db, "triton-lang/triton"), "Triton-Lang/Triton");
  EXPECT_EQ(repositories(), 2);
  Statement previous = db.prepare("SELECT previous_name IS NULL FROM repositories WHERE full_name = ?");
  previous.bind_all("Triton-Lang/Triton");
  ASSERT_TRUE(previous.step());
  EXPECT_EQ(previous.integer(0), 1);
  Statement left = db.prepare("SELECT COUNT(*) FROM repository_aliases");
  left.step();
  EXPECT_EQ(left.integer(0), 1);  // the real rename's alone
}

// A name GitHub gave up can be taken by another repository, in any case: the name leads to whichever took
// it last, as GitHub's redirects do, and is one alias whatever its spelling.
TEST(IssueUpsert, AFormerNameTakenInAnotherCaseIsOneAliasOfTheRepositoryThatTookItLast) {
  faultline::testing::TempDir dir;
  Database db(dir.file("a.db"));
  upsert_issue(db, closed("o/old", 1, "t"));
  rename_repository(db, "o/old", "o/new");  // o/old is an alias of o/new
  upsert_issue(db, closed("p/other", 1, "t"));
  rename_repository(db, "O/OLD", "p/other");  // p/other is now reached under O/OLD
  Statement aliases = db.prepare("SELECT name, repository_id FROM repository_aliases");
  ASSERT_TRUE(aliases.step());
  EXPECT_EQ(aliases.text(0), "O/OLD");
  EXPECT_EQ(aliases.integer(1), find_repository(db, "p/other"));
  EXPECT_FALSE(aliases.step());
  EXPECT_EQ(current_repository_name(db, "o/old"), "p/other");
  EXPECT_EQ(current_repository_name(db, "o/new"), "o/new");
  // Both hold an issue #1: the former name finds the one of the repository that took it last.
  ASSERT_TRUE(find_issue(db, "p/other", 1));
  EXPECT_NE(find_issue(db, "p/other", 1), find_issue(db, "o/new", 1));
  EXPECT_EQ(find_issue(db, "o/old", 1), find_issue(db, "p/other", 1));
}

// A store written before renames were checked against stored names may hold a name as a repository and as
// another's former name: the repository stored under it comes first, as find_known_repository has it.
TEST(IssueUpsert, ANameStoredAsARepositoryFindsItsIssueBeforeTheOneItIsAFormerNameOf) {
  faultline::testing::TempDir dir;
  Database db(dir.file("both.db"));
  upsert_issue(db, closed("o/new", 5, "renamed"));
  upsert_issue(db, closed("o/new", 6, "renamed"));
  upsert_issue(db, closed("o/r", 5, "stored under the name"));
  db.prepare("INSERT INTO repository_aliases(name, repository_id) VALUES ('o/r', ?)")
      .bind_all(*find_repository(db, "o/new"))
      .run();
  ASSERT_TRUE(find_issue(db, "o/r", 5));
  EXPECT_EQ(load_issue(db, *find_issue(db, "o/r", 5)).title, "stored under the name");
  EXPECT_EQ(load_issue(db, *find_issue(db, "O/R", 5)).title, "stored under the name");
  // A number only the renamed repository holds is found through the former name.
  EXPECT_EQ(find_issue(db, "o/r", 6), find_issue(db, "o/new", 6));
}

// A store written before names were matched in any case may hold one repository under two spellings in two
// rows: a lookup takes the row spelled as asked, else the older, and a rename between the two spellings is
// refused, as a rename onto a repository stored separately always was.
TEST(IssueUpsert, AStoreHoldingTwoSpellingsInTwoRowsLooksUpTheExactOneElseTheOlder) {
  faultline::testing::TempDir dir;
  Database db(dir.file("two.db"));
  db.exec("INSERT INTO repositories(id, full_name) VALUES (1, 'nvidia/cutlass'), (2, 'NVIDIA/cutlass')");
  EXPECT_EQ(find_repository(db, "NVIDIA/cutlass"), 2);
  EXPECT_EQ(find_repository(db, "nvidia/cutlass"), 1);
  EXPECT_EQ(find_repository(db, "Nvidia/Cutlass"), 1);
  EXPECT_EQ(current_repository_name(db, "NVIDIA/cutlass"), "NVIDIA/cutlass");
  EXPECT_EQ(current_repository_name(db, "Nvidia/Cutlass"), "nvidia/cutlass");
  upsert_issue(db, closed("NVIDIA/cutlass", 1, "t"));
  upsert_issue(db, closed("nvidia/cutlass", 2, "t"));
  EXPECT_EQ(find_issue(db, "NVIDIA/cutlass", 1), find_issue(db, "nvidia/CUTLASS", 1));
  for (const IssueRecord& stored : load_issues(db))
    EXPECT_EQ(stored.repo, stored.number == 1 ? "NVIDIA/cutlass" : "nvidia/cutlass");
  EXPECT_THROW(rename_repository(db, "nvidia/cutlass", "NVIDIA/cutlass"), faultline::Error);
}
