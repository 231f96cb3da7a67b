#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "miner/miner.hpp"
#include "common/error.hpp"
#include "tests/miner/fake_server.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline;
using nlohmann::json;

namespace {

// 250 issues and 30 pull requests interleaved (280 listing entries → 3 pages of 100) and 420 comments
// (5 pages). A full mine is 3 + 5 pages, plus the per-repository constant 3 (the repository itself and one
// request per listing from the new high-water mark) = 11 requests.
json standard_repo() { return {{"repos", {{"o/r", {{"issues", 250}, {"prs", 30}, {"comments", 420}}}}}}; }

miner::MineOptions options_for(const faultline::testing::FakeGitHub& server,
                               std::vector<std::string> repos = {"o/r"}) {
  miner::MineOptions o;
  o.repositories = std::move(repos);
  o.api.base_url = server.url();
  o.api.backoff_ms = 20;
  return o;
}

miner::MineSummary mine(datasets::Database& db, const miner::MineOptions& o) {
  return miner::mine(db, o, {});
}

int64_t scalar(datasets::Database& db, const std::string& sql) {
  auto s = db.prepare(sql);
  s.step();
  return s.integer(0);
}

}  // namespace

TEST(LinkHeader, FindsTheNextUrlAmongOthers) {
  EXPECT_EQ(miner::next_link(R"(<https://x/a?page=2&q=1>; rel="next", <https://x/a?page=9>; rel="last")"),
            "https://x/a?page=2&q=1");
  EXPECT_EQ(miner::next_link(R"(<https://x/a?page=1>; rel="prev", <https://x/a?page=3>; rel="next")"),
            "https://x/a?page=3");
  EXPECT_EQ(miner::next_link(R"(<https://x/a?page=1>; rel="first")"), "");
  EXPECT_EQ(miner::next_link(""), "");
}

TEST(Miner, FullMineTakesExactlyThePageCountPlusTheConstant) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto s = mine(db, options_for(server));
  EXPECT_EQ(s.stats.requests, 3 + 5 + 3);
  EXPECT_EQ(server.requests(), 11);
  EXPECT_EQ(s.issues, 250);
  EXPECT_EQ(s.pull_requests_skipped, 30);
  EXPECT_EQ(s.comments, 420);
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_EQ(datasets::count_comments(db), 420);
  // Issue 7: odd → labeled "bug"; 7 % 7 == 0 → null body; 7 % 3 != 0 → closed.
  auto seven = datasets::load_issue(db, *datasets::find_issue(db, "o/r", 7));
  EXPECT_EQ(seven.labels, std::vector<std::string>{"bug"});
  EXPECT_EQ(seven.body, "");
  EXPECT_EQ(seven.state, "closed");
  EXPECT_EQ(seven.updated, "2024-01-01T00:07:00Z");
  ASSERT_TRUE(seven.raw_json.has_value());
  EXPECT_EQ(json::parse(*seven.raw_json)["id"], 5000007);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM comments WHERE raw_json IS NOT NULL"), 420);
  // Comments become the discussion the classifier reads. Comment j belongs to the ((j-1) mod 250)-th plain
  // issue, so issue 1 holds comments 1 and 251 of the 420, oldest first.
  auto issues = datasets::load_issues(db);
  datasets::attach_comment_discussions(db, issues);
  EXPECT_EQ(issues[0].number, 1);
  EXPECT_EQ(issues[0].discussion, "comment 1000001\ncomment 1000251");
}

TEST(Miner, RefreshWithoutChangesMakesOnlyConditionalRequests) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  auto refresh = mine(db, options_for(server));
  EXPECT_EQ(refresh.stats.requests, 2);
  EXPECT_EQ(refresh.stats.not_modified, 2);
  EXPECT_EQ(refresh.issues, 0);
  EXPECT_EQ(server.control("stats")["not_modified"], 2);
}

TEST(Miner, RefreshAfterChangesFetchesOnlyTheChangedIssues) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  server.control("touch?repo=o/r&issues=4,8,15");
  auto refresh = mine(db, options_for(server));
  // issues: one page with the 3 changed + one request from the new mark; comments: one 304.
  EXPECT_EQ(refresh.stats.requests, 3);
  EXPECT_EQ(refresh.issues, 3);
  EXPECT_EQ(refresh.stats.not_modified, 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 8)).title, "Kernel crash 8 (v1)");
  EXPECT_EQ(mine(db, options_for(server)).stats.not_modified, 2);  // and quiet again
}

TEST(Miner, PaginationKeepsExtraQueryParameters) {
  json config = standard_repo();
  config["extra_param"] = true;  // the server answers 400 when a next link loses its parameters
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto s = mine(db, options_for(server));
  EXPECT_EQ(s.issues, 250);
  EXPECT_EQ(s.comments, 420);
}

TEST(Miner, TransientFaultsAndRateLimitsAreWaitedOutAndRetried) {
  json config = standard_repo();
  config["faults"] = {{"2", {{"status", 502}}},
                      {"3", {{"drop", true}}},
                      {"4", {{"status", 403}, {"retry_after", 1}}},
                      {"5", {{"status", 429}}},
                      {"6", {{"status", 403}, {"remaining", 0}, {"reset_in", 1}}},
                      {"7", {{"truncate", true}}}};
  config["exhaust_at"] = 9;
  config["close_connections"] =
      true;  // else libcurl retries a dropped keep-alive connection by itself, unseen
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto s = mine(db, options_for(server));
  EXPECT_EQ(s.stats.retries, 4);           // 502, dropped connection, 429 without retry-after, truncated body
  EXPECT_EQ(s.stats.rate_limit_waits, 3);  // retry-after, 403 at zero remaining, exhausted budget on a 200
  EXPECT_EQ(s.stats.requests, 11 + 6);
  EXPECT_EQ(server.requests(), 17);
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_EQ(datasets::count_comments(db), 420);
}

TEST(Miner, MalformedJsonNamesTheUrlKeepsEarlierPagesAndResumes) {
  json config = standard_repo();
  config["faults"] = {{"3", {{"malformed", true}}}};  // 1 = repository, 2 = issues page 1, 3 = issues page 2
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  try {
    mine(db, options_for(server));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("GET " + server.url() + "/repos/o/r/issues?"), std::string::npos) << message;
    EXPECT_NE(message.find("page=2"), std::string::npos) << message;
    EXPECT_NE(message.find("malformed JSON"), std::string::npos) << message;
  }
  // Page 1 holds entries 1–100, of which 100·30/280 = 10 (floor) are pull requests.
  EXPECT_EQ(datasets::count_issues(db), 90);
  auto again = mine(db, options_for(server));
  EXPECT_EQ(again.issues, 160);  // resumed at page 2, nothing fetched twice
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_EQ(datasets::count_comments(db), 420);
}

TEST(Miner, UnexpectedTypesNameTheUrlAndTheField) {
  json config = standard_repo();
  config["faults"] = {{"2", {{"wrong_type", true}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  try {
    mine(db, options_for(server));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/repos/o/r/issues?"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("field 'number' must be an integer"), std::string::npos) << e.what();
  }
  EXPECT_EQ(datasets::count_issues(db), 0);
}

TEST(Miner, ACommentByADeletedAccountIsKeptWithoutAnAuthor) {
  json config = standard_repo();
  config["repos"]["o/r"]["null_logins"] = true;  // "user": {"login": null} on comments 1000005, 1000010, …
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM comments"), 420);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM comments WHERE author = ''"), 420 / 5);
}

TEST(Miner, UnknownRepositoryIsAClearError) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  try {
    mine(db, options_for(server, {"nobody/nothing"}));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/repos/nobody/nothing: 404 Not Found"), std::string::npos)
        << e.what();
  }
}

TEST(Miner, RenamedRepositoryIsFollowedAndRecorded) {
  json config = standard_repo();
  config["renamed"] = {{"old/name", "o/r"}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto s = mine(db, options_for(server, {"old/name"}));
  ASSERT_EQ(s.renamed.size(), 1u);
  EXPECT_EQ(s.renamed[0].second, "o/r");
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_FALSE(datasets::find_repository(db, "old/name"));
  auto prev = db.prepare("SELECT previous_name FROM repositories WHERE full_name = 'o/r'");
  ASSERT_TRUE(prev.step());
  EXPECT_EQ(prev.text(0), "old/name");
}

TEST(Miner, MaxRequestsStopsCleanlyAndTheNextRunContinues) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.max_requests = 3;  // repository, issues page 1, issues page 2
  auto first = mine(db, o);
  EXPECT_TRUE(first.stopped_early);
  EXPECT_EQ(first.stats.requests, 3);
  EXPECT_EQ(datasets::count_issues(db), 179);  // entries 1–200 less floor(200·30/280) = 21 pull requests
  auto rest = mine(db, options_for(server));
  EXPECT_FALSE(rest.stopped_early);
  EXPECT_EQ(rest.stats.requests, 1 + 1 + 5 + 1);  // page 3, mark, comment pages, mark
  EXPECT_EQ(datasets::count_issues(db), 250);
}

TEST(Miner, TimelinesOfSampledIssuesAreStored) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  datasets::replace_sample(db, "main", {{*datasets::find_issue(db, "o/r", 5), "sampled", "draw", {}, {}, 1}});
  auto o = options_for(server);
  o.timeline = true;
  auto s = mine(db, o);
  EXPECT_EQ(s.timeline_events, 3);
  auto ref = db.prepare("SELECT reference FROM timeline_events WHERE event = 'cross-referenced'");
  ASSERT_TRUE(ref.step());
  EXPECT_EQ(ref.text(0), "https://github.com/o/r/pull/1005");
}

TEST(MineCommand, JsonSummaryHasExactlyTheDesignKeys) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  std::string command = std::string(FAULTLINE_BINARY_DIR) + "/cli/faultline --db " + dir.file("c.db") +
                        " --json mine --repo o/r --api-url " + server.url();
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  ASSERT_EQ(pclose(pipe), 0);
  json summary = json::parse(out);  // one JSON object and nothing else on stdout
  for (const char* key : {"requests", "not_modified", "issues", "pull_requests_skipped", "comments", "retries",
                          "rate_limit_waits"}) {
    EXPECT_TRUE(summary.contains(key)) << key;
  }
  EXPECT_EQ(summary["requests"], 11);
  EXPECT_EQ(summary["issues"], 250);
  EXPECT_EQ(summary["pull_requests_skipped"], 30);
  EXPECT_EQ(summary["comments"], 420);
}

TEST(Miner, KillDuringMineLosesNothingAndRerunCompletesWithoutDuplicates) {
  json config = {{"repos", {{"o/r", {{"issues", 2500}, {"comments", 2000}}}}}, {"delay_ms", 40}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  std::string db_path = dir.file("k.db");
  std::string faultline = std::string(FAULTLINE_BINARY_DIR) + "/cli/faultline";
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(faultline.c_str(), faultline.c_str(), "--db", db_path.c_str(), "mine", "--repo", "o/r", "--api-url",
          server.url().c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // 25 issue pages + 20 comment pages at 40 ms each: kill somewhere in the issue pages.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  long before = server.requests();
  ASSERT_LT(before, 25 + 20 + 3) << "the mine finished before it could be killed";
  {
    datasets::Database db(db_path);
    auto partial = datasets::count_issues(db);
    EXPECT_EQ(partial % 100, 0) << "pages are written whole";
    auto s = mine(db, options_for(server));
    EXPECT_EQ(datasets::count_issues(db), 2500);
    EXPECT_EQ(datasets::count_comments(db), 2000);
    EXPECT_EQ(
        scalar(db, "SELECT COUNT(*) FROM (SELECT number FROM issues GROUP BY number HAVING COUNT(*) > 1)"),
        0);
    // The rerun resumed: together both runs made at most one extra request (the page in flight when killed).
    EXPECT_LE(before + s.stats.requests, 25 + 20 + 3 + 1);
  }
}
