#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <thread>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/prediction_store.hpp"
#include "miner/miner.hpp"
#include "tests/miner/fake_server.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline;
using nlohmann::json;

namespace {

// 250 issues and 30 pull requests interleaved (280 listing entries) and 420 comments. Listings are paged
// by an updated_at cursor that repeats the newest entry of the page before, so the first page brings 100
// entries and each later one 99 new: ceil((280 − 1)/99) = 3 issue pages, ceil((420 − 1)/99) = 5 comment
// pages. A full mine is 3 + 5 pages, plus the per-repository constant 3 (the repository itself, asked on
// every mine, and one request per listing from the new high-water mark) = 11 requests. A refresh asks for
// the repository and both listings' last pages again: 3 requests, each answered 304 when nothing changed.
json standard_repo() { return {{"repos", {{"o/r", {{"issues", 250}, {"prs", 30}, {"comments", 420}}}}}}; }

miner::MineOptions options_for(const faultline::testing::FakeGitHub& server,
                               std::vector<std::string> repos = {"o/r"}) {
  miner::MineOptions o;
  o.repositories = std::move(repos);
  o.api.base_url = server.url();
  o.api.backoff_ms = 20;
  return o;
}

// Issues `numbers` of o/r drawn into the sample "main" (whose issues get timelines).
void sample_issues(datasets::Database& db, std::initializer_list<int64_t> numbers) {
  std::vector<datasets::SampleEntry> entries;
  for (int64_t n : numbers)
    entries.push_back({*datasets::find_issue(db, "o/r", n), "sampled", "draw", {}, {}, 1});
  datasets::replace_sample(db, "main", entries);
}

// A mine whose (first) repository failed throws its error, as a one-repository run ends in it.
miner::MineSummary mine(datasets::Database& db, const miner::MineOptions& o) {
  auto summary = miner::mine(db, o, {});
  if (!summary.failed.empty()) throw Error(summary.failed.front().second);
  return summary;
}

// What a mine that must be refused stops with; a test failure, and "", when it mines.
std::string refusal(datasets::Database& db, const miner::MineOptions& o) {
  try {
    mine(db, o);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "mined";
  return "";
}

int64_t scalar(datasets::Database& db, const std::string& sql) {
  auto s = db.prepare(sql);
  s.step();
  return s.integer(0);
}

double wall_clock() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Sleeps without sleeping: the miner's clock runs ahead by what it has slept, and every wait is recorded.
struct FakeSleep {
  double slept = 0;
  std::vector<std::string> lines;  // what on_wait heard
  void install(miner::ApiOptions& api) {
    api.sleep = [this](double s) { slept += s; };
    api.now = [this] { return wall_clock() + slept; };
    api.on_wait = [this](const std::string& line) { lines.push_back(line); };
  }
};

// Runs the faultline executable through the shell; returns its exit status, stdout and stderr.
struct Run {
  int status = 0;
  std::string out, err;
};
Run run_faultline(const std::string& env, const std::string& arguments, faultline::testing::TempDir& dir) {
  std::string err_file = dir.file("stderr.txt");
  std::string command = "env -u GITHUB_TOKEN -u GITHUB_TOKENS -u GITHUB_TOKENS_FILE " + env + " " +
                        FAULTLINE_BINARY_DIR + "/cli/faultline " + arguments + " 2>" + err_file;
  Run run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) run.out.append(buffer, n);
  run.status = pclose(pipe);
  std::ifstream in(err_file);
  run.err.assign(std::istreambuf_iterator<char>(in), {});
  return run;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
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
  EXPECT_EQ(refresh.stats.requests, 3);
  EXPECT_EQ(refresh.stats.not_modified, 3);
  EXPECT_EQ(refresh.issues, 0);
  EXPECT_EQ(server.control("stats")["not_modified"], 3);
}

TEST(Miner, RefreshAfterChangesFetchesOnlyTheChangedIssues) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  server.control("touch?repo=o/r&issues=4,8,15");
  auto refresh = mine(db, options_for(server));
  // The repository: a 304; issues: one page with the 3 changed + one request from the new mark; comments: a
  // 304.
  EXPECT_EQ(refresh.stats.requests, 4);
  EXPECT_EQ(refresh.issues, 3);
  EXPECT_EQ(refresh.stats.not_modified, 2);
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 8)).title, "Kernel crash 8 (v1)");
  EXPECT_EQ(mine(db, options_for(server)).stats.not_modified, 3);  // and quiet again
  // One validator each for the repository and its two listings: the issues listing's from the mark before
  // the changes went as the one from the new mark came.
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM http_cache"), 3);
}

TEST(Miner, ARefreshThatRetitlesIssuesDropsTheirResultsAndSaysHowMany) {
  // Issue 17 keeps its title, body and label whatever its version: edited on GitHub (a new updated_at)
  // without a change to what screening or the classifier reads, as when a comment or a reaction bumps it.
  json config = standard_repo();
  config["repos"]["o/r"]["overrides"] = {
      {"issues", {{"17", {{"title", "Kernel crash 17"}, {"body", "Body."}}}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  std::vector<datasets::ScreeningDecision> decisions;
  std::vector<datasets::Prediction> predictions;
  for (const auto& issue : datasets::load_issues(db)) {
    decisions.push_back({issue.id, datasets::ScreeningDecision::kCandidate, "title:crash"});
    predictions.push_back({issue.id, "v", "in", .9, "crash", .9, "api_misuse", .9, false, "[]", .5, .5});
  }
  datasets::replace_screening(db, decisions);
  datasets::replace_predictions(db, predictions);
  const int64_t seventeen = *datasets::find_issue(db, "o/r", 17);
  const std::string updated_before = datasets::load_issue(db, seventeen).updated;
  server.control("touch?repo=o/r&issues=4,8,15,17");  // a new version in the titles of 4, 8 and 15
  auto refresh = mine(db, options_for(server));
  EXPECT_EQ(refresh.issues, 4);
  EXPECT_NE(datasets::load_issue(db, seventeen).updated, updated_before);  // written again
  EXPECT_EQ(refresh.outdated.screening_decisions, 3);
  EXPECT_EQ(refresh.outdated.predictions, 3);
  EXPECT_EQ(miner::mine_summary_json(refresh)["screening_outdated"], 3);
  EXPECT_EQ(miner::mine_summary_json(refresh)["predictions_outdated"], 3);
  for (int64_t n : {4, 8, 15}) {
    EXPECT_FALSE(datasets::find_screening(db, *datasets::find_issue(db, "o/r", n)));
    EXPECT_FALSE(datasets::find_prediction(db, *datasets::find_issue(db, "o/r", n)));
  }
  EXPECT_TRUE(datasets::find_screening(db, seventeen));
  EXPECT_TRUE(datasets::find_prediction(db, seventeen));
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
  auto o = options_for(server);
  o.api.max_retries = 6;      // requests 2–7 are six faults in a row on the first issue page, one budget
  std::vector<double> waits;  // each wait's length as said; the minute is not slept, the others are
  o.api.wait_report_interval_s = 1e9;
  o.api.on_wait = [&](const std::string& line) { waits.push_back(std::stod(line.substr(8))); };
  o.api.sleep = [](double s) {
    if (s < 60) std::this_thread::sleep_for(std::chrono::duration<double>(s));
  };
  auto s = mine(db, o);
  EXPECT_EQ(s.stats.retries, 3);  // 502, dropped connection, truncated body
  EXPECT_EQ(s.stats.rate_limit_waits,
            4);  // retry-after, 429, 403 at zero remaining, exhausted budget on a 200
  // The 429 named no time: a minute, as GitHub asks (the backoff of 20 ms doubling would be under a second).
  EXPECT_EQ(std::count(waits.begin(), waits.end(), 60.0), 1);
  EXPECT_EQ(s.stats.requests, 11 + 6);
  EXPECT_EQ(server.requests(), 17);
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_EQ(datasets::count_comments(db), 420);
}

// This machine's clock 30 s ahead of GitHub's, and the rate limit spent from the first listing page until
// GitHub's reset 3 s on. Measured against this machine's clock the reset had passed: each wait was 1 s, and
// after five the repository failed ("still rate limited"). The Date header gives GitHub's clock, so the
// wait is about 4 s (the reset, plus a second of margin) and the mine goes on.
TEST(Miner, ARateLimitResetIsWaitedForInGitHubsClockNotThisMachines) {
  json config = standard_repo();
  config["spent_from"] = {{"request", 2}, {"for_s", 3}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.now = [] {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count() + 30;
  };
  const auto s = mine(db, o);
  EXPECT_EQ(s.stats.rate_limit_waits, 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
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
    EXPECT_NE(message.find("since=2024-01-01T01:40:00Z"), std::string::npos) << message;  // entry 100's
    EXPECT_NE(message.find("malformed JSON"), std::string::npos) << message;
  }
  // Page 1 holds entries 1–100, of which 100·30/280 = 10 (floor) are pull requests.
  EXPECT_EQ(datasets::count_issues(db), 90);
  auto again = mine(db, options_for(server));
  EXPECT_EQ(again.issues, 160);  // resumed at page 2; entry 100, already stored as it is, not rewritten
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

TEST(Miner, AFullNameThatIsNoRepositoryNameIsRefusedAndNothingIsStored) {
  // The repository's own answer names it; the name goes into the store and every document, so one that is
  // not OWNER/NAME (here with a newline, which would split a fastText training line) stops the mine.
  // Each with the name as the message shows it: a newline written out, so the message stays one line.
  for (const auto& [bad, shown] : std::vector<std::pair<std::string, std::string>>{
           {"o/r\n__label__crash", "o/r\\n__label__crash"}, {"o/r x", "o/r x"}, {"o", "o"}}) {
    json config = standard_repo();
    config["full_names"] = {{"o/r", bad}};
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    const std::string refused = refusal(db, options_for(server));
    EXPECT_NE(refused.find(": full_name: repo '" + shown + "' is not of the form OWNER/NAME"),
              std::string::npos)
        << refused;
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM repositories"), 0) << bad;
    EXPECT_EQ(datasets::count_issues(db), 0) << bad;
  }
  // The same server with the name it should give mines.
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  EXPECT_TRUE(mine(db, options_for(server)).renamed.empty());
  EXPECT_EQ(datasets::count_issues(db), 250);
}

TEST(Miner, AnItemWhoseUrlTimeOrStateIsNotGitHubsFormIsRefused) {
  // What the miner stores must import again from an exported snapshot, so it is held to a record's rules
  // (and times to GitHub's one form, which the store orders by and the next refresh starts from). One field
  // of one item is changed at a time: issue 5 and pull request 10 are on the first page of issues, the 3rd
  // comment on the first page of comments, so nothing of that listing is stored.
  struct Case {
    const char* listing;
    const char* item;
    const char* field;
    std::string value;
    std::string expected;  // in the message
  };
  for (const Case& c : std::vector<Case>{
           {"issues", "5", "html_url", "javascript:alert(1)",
            "html_url 'javascript:alert(1)' is not the page of issue 5"},
           {"issues", "5", "html_url", "https://github.com/o/r/issues/6",
            "(it is the page of issue 6, not of 5)"},
           {"issues", "5", "html_url", "https://github.com/o/r/discussions/5",
            "(its path is not OWNER/NAME/issues"},
           {"issues", "5", "created_at", "2024-02-30T00:00:00Z",
            "created_at '2024-02-30T00:00:00Z' is not a UTC"},
           {"issues", "5", "updated_at", "2024-01-01", "updated_at '2024-01-01' is not a UTC time"},
           {"issues", "5", "state", "merged", "state 'merged' of o/r#5 is neither"},
           // A snapshot record updated before it was created is refused, so the miner must not store one.
           {"issues", "5", "created_at", "2099-01-01T00:00:00Z",
            "of o/r#5 is before its created_at '2099-01-01T00:00:00Z'"},
           {"issues", "10", "updated_at", "2024-01-01 00:10:00",
            "updated_at '2024-01-01 00:10:00' is not a UTC"},
           {"comments", "3", "created_at", "yesterday", "created_at 'yesterday' is not a UTC time"},
           {"comments", "3", "updated_at", "2024-01-01T00:00:00+01:00",
            "updated_at '2024-01-01T00:00:00+01:00'"},
           // The issue a comment belongs to is the number its issue_url ends with, and nothing else: a sign,
           // a space or a trailing letter made it another issue, or a negative one.
           {"comments", "3", "issue_url", "https://api.github.com/repos/o/r/issues/+12",
            "comment 1000003 has an unreadable issue_url 'https://api.github.com/repos/o/r/issues/+12'"},
           {"comments", "3", "issue_url", "https://api.github.com/repos/o/r/issues/-7",
            "unreadable issue_url"},
           {"comments", "3", "issue_url", "https://api.github.com/repos/o/r/issues/12x",
            "unreadable issue_url"},
           {"comments", "3", "issue_url", "https://api.github.com/repos/o/r/issues/ 12",
            "unreadable issue_url"}}) {
    json config = standard_repo();
    config["repos"]["o/r"]["overrides"] = {{c.listing, {{c.item, {{c.field, c.value}}}}}};
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    const std::string refused = refusal(db, options_for(server));
    EXPECT_NE(refused.find(c.expected), std::string::npos) << refused;
    // Issues are listed before comments: a bad comment leaves the 250 issues stored, a bad issue nothing.
    EXPECT_EQ(datasets::count_issues(db), c.listing == std::string("issues") ? 0 : 250) << c.field;
    EXPECT_EQ(datasets::count_comments(db), 0) << c.field << " " << c.value;
  }
  // GitHub writes the repository in a page's address as it spells it, which need not be as the user did.
  json config = standard_repo();
  config["repos"]["o/r"]["overrides"] = {
      {"issues", {{"5", {{"html_url", "https://github.com/O/R/issues/5"}}}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  EXPECT_EQ(mine(db, options_for(server)).issues, 250);
}

TEST(Miner, MaxRequestsStopsCleanlyAndTheNextRunContinues) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.max_requests = 3;  // repository, issues page 1 (entries 1–100), issues page 2 (100–199)
  auto first = mine(db, o);
  EXPECT_TRUE(first.stopped_early);
  EXPECT_EQ(first.stats.requests, 3);
  EXPECT_EQ(datasets::count_issues(db), 178);  // entries 1–199 less floor(199·30/280) = 21 pull requests
  // Every run asks for the repository first; with one more request it goes on with the pass under way.
  o.api.max_requests = 2;
  EXPECT_TRUE(mine(db, o).stopped_early);
  EXPECT_EQ(datasets::count_issues(db), 250);  // page 3
  auto rest = mine(db, options_for(server));
  EXPECT_FALSE(rest.stopped_early);
  // The repository, the issues' walk from the mark (kept in the cursor), comment pages, the walk from theirs.
  EXPECT_EQ(rest.stats.requests, 1 + 1 + 5 + 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
}

// Every request fails (nothing listens on the port): a budget spent on retries says what failed, rather
// than read as a budget spent on work ("stopped at --max-requests" of an empty store, the failure unsaid).
TEST(Miner, ABudgetSpentRetryingAFailedRequestSaysWhatFailed) {
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  miner::MineOptions o;
  o.repositories = {"o/r"};
  o.api.base_url = "http://127.0.0.1:1";
  o.api.backoff_ms = 0;
  o.api.max_requests = 2;
  const auto spent = mine(db, o);
  EXPECT_TRUE(spent.stopped_early);
  EXPECT_EQ(spent.stop_reason.rfind("stopped at --max-requests while retrying a request that failed (GET "
                                    "http://127.0.0.1:1/repos/o/r: ",
                                    0),
            0u)
      << spent.stop_reason;
  // The trigger removed: a budget spent on answered requests says only that it was spent.
  faultline::testing::FakeGitHub server(standard_repo());
  auto answered = options_for(server);
  answered.api.max_requests = 2;
  EXPECT_EQ(mine(db, answered).stop_reason,
            "stopped at --max-requests; run the same command again to continue");
}

TEST(Miner, TimelinesOfSampledIssuesAreStored) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  sample_issues(db, {5});
  auto o = options_for(server);
  o.timeline = true;
  auto s = mine(db, o);
  EXPECT_EQ(s.timeline_events, 3);
  auto ref = db.prepare("SELECT reference FROM timeline_events WHERE event = 'cross-referenced'");
  ASSERT_TRUE(ref.step());
  EXPECT_EQ(ref.text(0), "https://github.com/o/r/pull/1005");
  // A sampled issue deleted on GitHub since: its timeline is unavailable (its stored events kept), and the
  // other sampled issues still get theirs.
  server.control("delete?repo=o/r&issues=5");
  sample_issues(db, {5, 6});
  auto again = mine(db, o);
  EXPECT_EQ(again.timelines_unavailable,
            (std::vector<std::pair<std::string, std::string>>{{"o/r#5", "410: deleted"}}));
  EXPECT_EQ(again.timeline_events, 3);  // issue 6's
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM timeline_events"), 6);
  // A sample the store does not hold is refused before any request (it fetched nothing and said nothing).
  const long requests = server.requests();
  o.sample = "nosuch";
  EXPECT_EQ(refusal(db, o), "mine --timeline: no sample named 'nosuch' in the store (samples: main)");
  EXPECT_EQ(server.requests(), requests);
}

// A run stopped mid-listing under one --api-url resumes under another from the high-water mark, not by
// requesting the old host's saved next page.
TEST(Miner, AResumedMineUnderAnotherApiUrlDoesNotFollowTheOldHostsCursor) {
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  {
    faultline::testing::FakeGitHub gone(standard_repo());
    auto o = options_for(gone);
    o.api.max_requests = 2;  // the repository, the first issues page: a cursor to gone's next page is saved
    EXPECT_TRUE(mine(db, o).stopped_early);
  }
  faultline::testing::FakeGitHub now(standard_repo());
  auto s = mine(db, options_for(now));
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues"), 250);
  // The first page held 100 entries, floor(100·30/280) = 10 of them pull requests: 90 issues were stored.
  // The other 160 come now, and the entries of the ten minutes (--overlap's 600 s) up to the mark again,
  // 90 to 100 a minute apart less pull request 94, their objects' urls naming the new host.
  EXPECT_EQ(s.issues, 160 + 10);
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
  for (const char* key : {"requests", "not_modified", "issues", "pull_requests_skipped", "comments",
                          "retries", "rate_limit_waits"}) {
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
  // ceil(2499/99) = 26 issue pages + ceil(1999/99) = 21 comment pages at 40 ms each: kill somewhere in
  // the issue pages.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  long before = server.requests();
  ASSERT_LT(before, 26 + 21 + 3) << "the mine finished before it could be killed";
  {
    datasets::Database db(db_path);
    auto partial = datasets::count_issues(db);
    EXPECT_TRUE(partial == 0 || (partial - 100) % 99 == 0) << partial << ": pages are written whole";
    auto s = mine(db, options_for(server));
    EXPECT_EQ(datasets::count_issues(db), 2500);
    EXPECT_EQ(datasets::count_comments(db), 2000);
    EXPECT_EQ(
        scalar(db, "SELECT COUNT(*) FROM (SELECT number FROM issues GROUP BY number HAVING COUNT(*) > 1)"),
        0);
    // The rerun resumed: together both runs made at most two extra requests (the page in flight when killed,
    // and the rerun's own request for the repository).
    EXPECT_LE(before + s.stats.requests, 26 + 21 + 3 + 2);
  }
}

// ---- Completeness ----

TEST(Miner, IssueEditedDuringTheListingHidesNoNeighbour) {
  json config = standard_repo();
  // Request 1 is the repository, 2 the first issue page (entries 1–100); issue 5 is edited just before
  // request 3 and moves to the end. Paged by page number, page 2 would start at entry 102 and entry 101
  // (older than the final mark) would never be fetched.
  config["touch_at"] = {{"3", {{"repo", "o/r"}, {"issues", {5}}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_TRUE(datasets::find_issue(db, "o/r", 101));
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 5)).title, "Kernel crash 5 (v1)");
}

TEST(Miner, EditInTheSecondOfTheMarkIsSeenByTheRefresh) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  // Issue 9 is edited in the same second as the newest entry (the high-water mark): a refresh that asks
  // from one second after the mark never sees it.
  server.control("touch?repo=o/r&issues=9&same_second=1");
  auto refresh = mine(db, options_for(server));
  EXPECT_EQ(refresh.issues, 1);  // issue 9; entry 280 at the mark is stored as it is and skipped
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 9)).title, "Kernel crash 9 (v1)");
  EXPECT_EQ(mine(db, options_for(server)).stats.not_modified, 3);  // and quiet again
}

// An issue GitHub shows only after the listing passed its updated_at (a write that commits late): issue 281
// appears two minutes before the mark (entry 280) after the first mine. A refresh asks from --overlap
// seconds before the mark, so it is read when the delay is within them, and not otherwise.
TEST(Miner, AnIssueShownLateIsReadWhenItsDelayIsWithinTheOverlap) {
  struct Case {
    int64_t overlap_seconds, shown_seconds_before_the_mark;
    bool read;
  };
  for (const Case& c : {Case{600, 120, true}, Case{0, 120, false}, Case{600, 900, false}}) {
    SCOPED_TRACE("--overlap " + std::to_string(c.overlap_seconds) + ", shown " +
                 std::to_string(c.shown_seconds_before_the_mark) + " s before the mark");
    faultline::testing::FakeGitHub server(standard_repo());
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    auto o = options_for(server);
    o.overlap_seconds = c.overlap_seconds;
    mine(db, o);
    server.control("backdate?repo=o/r&issues=281&seconds=" + std::to_string(c.shown_seconds_before_the_mark));
    EXPECT_EQ(mine(db, o).issues, c.read ? 1 : 0);
    EXPECT_EQ(datasets::find_issue(db, "o/r", 281).has_value(), c.read);
  }
}

// A write GitHub shows late, while the pass is still reading edits made after it began: the pass has gone
// past the write's time, and its mark ends more than --overlap after it, so a refresh from the mark would
// never see it. The listing is walked again from --overlap before the pass's start (GitHub's Date).
// Entries 1-280 were edited a minute apart from 00:01 (the fake's clock, which its Date header tells here).
// The refresh's request for the repository is answered at 04:40, where the pass begins. Its first page (from
// 04:30, ten minutes before the mark) is answered after issues 1-95 are edited (04:42 to 06:16) and holds
// entries 270-280 and issues 1-89 (to 06:10). Before the second page, issue 200 is written at 06:09 (within
// the overlap of the page's own answer at 06:16) and issues 96-150 are edited (to 07:11, the new mark). A
// refresh from the mark asks from 07:01; the walk from 04:30 reads issue 200.
TEST(Miner, AWriteShownLateWhileThePassReadsLaterEditsIsReadByTheWalkFromThePassStart) {
  // Or the refresh stopped by --max-requests after its first page (2: the repository, the page) or after the
  // pass's last page (3), and a rerun goes on: the cursor keeps when the pass began and the walk it is in.
  for (long stopped_after : {0L, 2L, 3L}) {
    SCOPED_TRACE(stopped_after ? "stopped after " + std::to_string(stopped_after) + " requests" : "one run");
    const bool resumed = stopped_after > 0;
    json config = {{"repos", {{"o/r", {{"issues", 250}, {"prs", 30}}}}}, {"synthetic_date", true}};
    config["touch_at"] = {{"8", {{"repo", "o/r"}, {"issues", json::array()}}},
                          {"9", {{"repo", "o/r"}, {"issues", json::array()}}}};
    for (int n = 1; n <= 150; ++n) config["touch_at"][n <= 95 ? "8" : "9"]["issues"].push_back(n);
    config["backdate_at"] = {{"9", {{"repo", "o/r"}, {"issues", {200}}, {"seconds", 420}, {"version", 1}}}};
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    // The first mine: the repository, 3 issue pages, the walk from the mark, an empty comment listing.
    EXPECT_EQ(mine(db, options_for(server)).stats.requests, 6);
    auto o = options_for(server);
    long requests = 0;
    if (resumed) {
      o.api.max_requests = stopped_after;
      EXPECT_TRUE(mine(db, o).stopped_early);
      requests += stopped_after;
      o.api.max_requests = -1;
    }
    requests += mine(db, o).stats.requests;
    EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 200)).title, "Kernel crash 200 (v1)");
    // The repository, 2 pages, the walk from the pass's start (162 entries from 04:30: 2 pages), the walk
    // from the mark, the comments; resumed, the second run asks for the repository again.
    EXPECT_EQ(requests, resumed ? 8 : 7);
  }
}

// A walk stopped mid-way, and while it is stopped a write GitHub shows late lands behind its cursor and more
// edits follow: the walk that read edits made after it began is followed by a walk from its own start.
// Issues 1-250 were edited a minute apart from 00:01 (the mark 04:10). The refresh's first page (from 04:00)
// is answered after issues 1-91 are edited (04:12 to 05:42); the pass, begun at 04:10, reads to 05:42 and is
// walked again from 04:00: that walk (begun at 05:42) stops after its first page, at 05:40. Then issue 200 is
// written at 05:36 (within the overlap of the walk's start) and issues 201-210 are edited (05:43 to 05:52).
// The resumed walk reads from 05:40 to 05:52; the walk from its start (05:32) reads issue 200.
TEST(Miner, AWriteShownLateBehindAStoppedWalkIsReadByTheWalkFromItsStart) {
  json config = {{"repos", {{"o/r", {{"issues", 250}}}}}, {"synthetic_date", true}};
  config["touch_at"] = {{"8", {{"repo", "o/r"}, {"issues", json::array()}}}};
  for (int n = 1; n <= 91; ++n) config["touch_at"]["8"]["issues"].push_back(n);
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  // The first mine: the repository, 3 issue pages, the walk from the mark, an empty comment listing.
  EXPECT_EQ(mine(db, options_for(server)).stats.requests, 6);
  auto o = options_for(server);
  o.api.max_requests = 4;  // the repository, 2 pages of the pass, the first page of the walk
  EXPECT_TRUE(mine(db, o).stopped_early);
  server.control("backdate?repo=o/r&issues=200&seconds=360&version=1");
  server.control("touch?repo=o/r&issues=201,202,203,204,205,206,207,208,209,210");
  mine(db, options_for(server));
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 200)).title, "Kernel crash 200 (v1)");
}

// A mine stopped by --max-requests goes on with the walk its cursor is in: a repository edited between runs,
// each run of two requests (the repository and one page), reaches its comments. Were the walks counted from
// the pass on every resumption, each run would walk again from the pass and the comments never come.
TEST(Miner, AMineStoppedInAWalkGoesOnWithItOnABusyRepository) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  const auto comment_requests = [&] {
    return server.control("stats")["paths"].value("/repos/o/r/issues/comments", 0);
  };
  const int before = comment_requests();
  auto o = options_for(server);
  o.api.max_requests = 2;
  int runs = 0;
  while (comment_requests() == before && runs < 10) {
    server.control("touch?repo=o/r&issues=" + std::to_string(runs + 1));
    mine(db, o);
    ++runs;
  }
  // The pass's page, then at most kMaxWalks (3) walks, one a run; the fifth run asks for the comments.
  EXPECT_LE(runs, 5);
}

// Reading the overlap again may meet an earlier version of a stored issue (an answer that lags): it is not
// written over the newer one, while a newer version is.
TEST(Miner, AnEarlierVersionReadInTheOverlapIsNotWrittenOverTheStoredOne) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  server.control("touch?repo=o/r&issues=275");  // version 1, the newest entry
  mine(db, options_for(server));
  auto title = [&] { return datasets::load_issue(db, *datasets::find_issue(db, "o/r", 275)).title; };
  ASSERT_EQ(title(), "Kernel crash 275 (v1)");
  server.control("backdate?repo=o/r&issues=275&seconds=60&version=0");  // served as it was a minute before
  EXPECT_EQ(mine(db, options_for(server)).issues, 0);
  EXPECT_EQ(title(), "Kernel crash 275 (v1)");
  // Edited again: a minute after the first edit at 04:42 (entries 1-280 a minute apart from midnight, the
  // first edit at 281 + 1 minutes), as version 0 + 1.
  server.control("touch?repo=o/r&issues=275");
  EXPECT_EQ(mine(db, options_for(server)).issues, 1);
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 275)).updated, "2024-01-01T04:43:00Z");
}

// 30 issues and 5 pull requests (numbers 7, 14, 21, 28, 35: where floor(n·5/35) steps); 12 deleted (410),
// 15 gone (404), 13 transferred to x/y, 20 missing from the listing but there when asked for alone.
json verify_repo() {
  return {{"repos",
           {{"o/r",
             {{"issues", 30},
              {"prs", 5},
              {"deleted", {12}},
              {"not_found", {15}},
              {"hidden", {20}},
              {"transferred", {{"13", "x/y"}}}}},
            {"x/y", {{"issues", 20}}}}}};
}

TEST(Miner, VerifyAccountsForEveryNumberAndRecoversWhatTheListingMissed) {
  faultline::testing::FakeGitHub server(verify_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.verify = true;
  auto s = mine(db, o);
  ASSERT_EQ(s.verified.size(), 1u);
  const auto& v = s.verified[0];
  EXPECT_EQ(v.highest_number, 35);
  EXPECT_EQ(v.pull_requests, 5);
  EXPECT_EQ(v.fetched, 4);    // 12, 13, 15, 20
  EXPECT_EQ(v.recovered, 1);  // 20
  EXPECT_EQ(v.issues, 35 - 5 - 4 + 1);
  ASSERT_EQ(v.missing.size(), 3u);
  EXPECT_EQ(v.missing[0], (std::pair<int64_t, std::string>{12, "410: deleted"}));
  EXPECT_EQ(v.missing[1], (std::pair<int64_t, std::string>{13, "transferred to x/y#13"}));
  EXPECT_EQ(v.missing[2].first, 15);
  EXPECT_EQ(v.missing[2].second.substr(0, 4), "404:");
  EXPECT_TRUE(datasets::find_issue(db, "o/r", 20));
  EXPECT_EQ(v.issues + v.pull_requests + static_cast<int64_t>(v.missing.size()), v.highest_number);
  // Again: only the three still missing are asked for.
  auto again = mine(db, o).verified.at(0);
  EXPECT_EQ(again.fetched, 3);
  EXPECT_EQ(again.recovered, 0);
}

// What --verify finds is held to the listing's rules: an issue from 2099 would stay as it is until then, as
// no later version of it is newer; an answer with a pull request's key whose page is an issue's would
// account for an issue as a pull request. Each is refused and nothing of it stored; the same hidden issue as
// it is, is recovered.
TEST(Miner, VerifyHoldsWhatItFindsToTheListingsRules) {
  struct Case {
    json fields;           // of issue 20 as sent
    std::string expected;  // in the message; empty: recovered
  };
  for (const Case& c : std::vector<Case>{
           {{{"updated_at", "2099-01-01T00:00:00Z"}},
            "/issues/20: updated_at '2099-01-01T00:00:00Z' is in the future"},
           {{{"pull_request", {{"url", "https://api.github.com/repos/o/r/pulls/20"}}}},
            "html_url 'https://github.com/o/r/issues/20' of pull request 20 is the page of an issue"},
           {json::object(), ""}}) {
    json config = {{"repos", {{"o/r", {{"issues", 25}, {"hidden", {20}}}}}}};
    if (!c.fields.empty()) config["repos"]["o/r"]["overrides"] = {{"issues", {{"20", c.fields}}}};
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    auto o = options_for(server);
    o.verify = true;
    if (c.expected.empty()) {
      EXPECT_EQ(mine(db, o).verified.at(0).recovered, 1);
    } else {
      const std::string refused = refusal(db, o);
      EXPECT_NE(refused.find(c.expected), std::string::npos) << refused;
    }
    EXPECT_EQ(datasets::find_issue(db, "o/r", 20).has_value(), c.expected.empty()) << c.expected;
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM listing_pull_requests"), 0) << c.expected;
  }
}

// A rename noticed in --verify's answer for a number (o/r renamed o/new before request 9, the hidden issue
// 5's) turns the verdict "transferred to o/new#5" it kept into the repository's own issue, which is then
// refused (from 2099). The run stops in x/y (--max-requests 16) before a run's end clears what a verify kept:
// the verify begins again all the same, and the next run asks for 5 again (refused again) rather than go on
// past it and report it transferred to itself.
TEST(Miner, AVerifyAnswerRefusedAfterARenameLeavesNoVerdictBehind) {
  faultline::testing::FakeGitHub server(
      json{{"repos",
            {{"o/r",
              {{"issues", 10},
               {"hidden", {5}},
               {"overrides", {{"issues", {{"5", {{"updated_at", "2099-01-01T00:00:00Z"}}}}}}}}},
             {"x/y", {{"issues", 3}}}}},
           {"rename_at", {{"9", {{"from", "o/r"}, {"to", "o/new"}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server, {"o/r", "x/y"});
  o.verify = true;
  o.api.max_requests = 16;
  const auto stopped = miner::mine(db, o, {});
  EXPECT_TRUE(stopped.stopped_early);
  ASSERT_EQ(stopped.failed.size(), 1u);
  EXPECT_NE(stopped.failed[0].second.find("/issues/5: updated_at '2099-01-01T00:00:00Z' is in the future"),
            std::string::npos)
      << stopped.failed[0].second;
  EXPECT_EQ(
      scalar(db, "SELECT COUNT(*) FROM verify_progress") + scalar(db, "SELECT COUNT(*) FROM verify_missing"),
      0);
  o.api.max_requests = -1;
  const auto again = miner::mine(db, o, {});
  ASSERT_EQ(again.failed.size(), 1u);
  EXPECT_NE(again.failed[0].second.find("/issues/5: updated_at '2099-01-01T00:00:00Z' is in the future"),
            std::string::npos)
      << again.failed[0].second;
}

// --verify asks for numbers one request each, and a first mine from --since leaves it every older number:
// each is said as it is asked for, and so is each sampled issue's timeline. By hand, from verify_repo():
// the listing's highest is 35, then 36-38 (not there); numbers 12, 13, 15 and 20 are asked for, 20 found.
TEST(Miner, VerifyAndTimelinesSayTheirProgress) {
  faultline::testing::FakeGitHub server(verify_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  sample_issues(db, {5, 6});
  auto o = options_for(server);
  o.verify = true;
  o.timeline = true;
  std::vector<std::string> lines;
  miner::mine(db, o,
              [&](const std::string& line) { lines.push_back(line.substr(0, line.find(", requests"))); });
  auto said = [&](const std::string& line) { return std::count(lines.begin(), lines.end(), line); };
  for (const char* n : {"36", "37", "38"})
    EXPECT_EQ(said("o/r, verify: number " + std::string(n) + ", past the listing's highest"), 1) << n;
  EXPECT_EQ(said("o/r, verify: number 12, 1 of 4 asked for; recovered 0"), 1);
  EXPECT_EQ(said("o/r, verify: number 15, 3 of 4 asked for; recovered 0"), 1);
  EXPECT_EQ(said("o/r, verify: number 20, 4 of 4 asked for; recovered 1"), 1);
  EXPECT_EQ(said("timelines: o/r#5, 1 of 2 sampled issues; events 3"), 1);
  EXPECT_EQ(said("timelines: o/r#6, 2 of 2 sampled issues; events 6"), 1);
}

// A --verify stopped by --max-requests goes on after the last number it checked: 30 deleted numbers and
// issue 45, missing from the listing. Each run of 13 requests asks for the repository, both listings (304),
// the highest number and the three after it (61-63, not there), then 6 numbers: 1-30 in five runs, 45 in the
// sixth, which ends. Were each run to
// start again from the lowest unaccounted number, it would ask for 1-6 every time and never reach 45.
TEST(Miner, AVerifyStoppedByMaxRequestsGoesOnAfterTheNumbersItChecked) {
  json deleted = json::array();
  for (int n = 1; n <= 30; ++n) deleted.push_back(n);
  faultline::testing::FakeGitHub server(
      json{{"repos", {{"o/r", {{"issues", 60}, {"deleted", deleted}, {"hidden", {45}}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  auto o = options_for(server);
  o.verify = true;
  o.api.max_requests = 13;
  miner::MineSummary s;
  int runs = 0;
  do {
    s = mine(db, o);
    ++runs;
    if (s.stopped_early) mine(db, options_for(server));  // a refresh between them (cron) leaves it be
  } while (s.stopped_early && runs < 12);
  EXPECT_EQ(runs, 6);
  ASSERT_EQ(s.verified.size(), 1u);
  const auto& v = s.verified[0];
  EXPECT_EQ(v.fetched, 1);
  EXPECT_EQ(v.recovered, 1);
  ASSERT_EQ(v.missing.size(), 30u);  // the earlier runs' too
  EXPECT_EQ(v.missing.front(), (std::pair<int64_t, std::string>{1, "410: deleted"}));
  EXPECT_EQ(v.issues + v.pull_requests + static_cast<int64_t>(v.missing.size()), v.highest_number);
  // Once it ended, a verify asks for every unaccounted number again.
  o.api.max_requests = -1;
  EXPECT_EQ(mine(db, o).verified.at(0).fetched, 30);
}

// Two repositories verified in runs of 46 requests: a/a's verify ends in the first run (the repository,
// both listings, the highest number and the three after it: 7 requests, and 30 deleted numbers), b/b's stops
// after its first 2 numbers (7 + 2). The second run takes a/a's verify as it ended (7 requests, no number
// asked for again) and ends b/b's (7 + the other 29 numbers). Were an ended verify asked for again, a/a's 30
// numbers would leave b/b 2 numbers a run.
TEST(Miner, AVerifyThatEndedInAStoppedRunIsNotAskedForAgainByItsRerun) {
  json deleted = json::array();
  for (int n = 1; n <= 30; ++n) deleted.push_back(n);
  faultline::testing::FakeGitHub server(
      json{{"repos",
            {{"a/a", {{"issues", 40}, {"deleted", deleted}}},
             {"b/b", {{"issues", 60}, {"deleted", deleted}, {"hidden", {45}}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server, {"a/a", "b/b"}));
  auto o = options_for(server, {"a/a", "b/b"});
  o.verify = true;
  o.api.max_requests = 46;
  EXPECT_TRUE(mine(db, o).stopped_early);
  auto second = mine(db, o);
  EXPECT_FALSE(second.stopped_early);
  EXPECT_EQ(second.stats.requests, 7 + 7 + 29);
  ASSERT_EQ(second.verified.size(), 2u);
  for (const auto& v : second.verified) {
    EXPECT_EQ(v.missing.size(), 30u) << v.repo;
    EXPECT_EQ(v.issues + v.pull_requests + static_cast<int64_t>(v.missing.size()), v.highest_number)
        << v.repo;
  }
  EXPECT_TRUE(datasets::find_issue(db, "b/b", 45));
}

// The repository renamed while the verify asks for its numbers: the answer for a number comes through a
// redirect (by the repository's own GitHub id, /repositories/1/..., as GitHub's are), and the repository,
// asked for then, says the rename. The answer is its own issue, stored, not a transfer; the run over, the
// verify's progress is gone.
// The first mine is 4 requests (the repository, one issues page, the walk from the mark, the empty comments);
// the verify's run asks for the repository, both listings and the highest number (5-8), the three numbers
// after it (9-11, not there), then issue 45, missing from the listing, as request 12, just before which the
// repository is renamed.
// And the same when issue 45 was transferred to x/y (answered with the moved issue, x/y#45): the repository's
// own answer names the rename, and the issue stays transferred. A pull request answered so (44 of 50 issues
// and 5 pull requests: 11, 22, 33, 44, 55) is recorded as one, and a deleted number (410 through the
// redirect) is missing, the rename left to the next run.
TEST(Miner, AVerifyDuringARenameStoresTheRepositorysOwnIssue) {
  enum class Case { kOwnIssue, kTransferred, kPullRequest, kDeleted };
  for (Case c : {Case::kOwnIssue, Case::kTransferred, Case::kPullRequest, Case::kDeleted}) {
    SCOPED_TRACE(static_cast<int>(c));
    const bool transferred = c == Case::kTransferred;
    json config = {{"repos", {{"o/r", {{"issues", 50}, {"hidden", {45}}}}}},
                   {"rename_at", {{"12", {{"from", "o/r"}, {"to", "o/new"}}}}},
                   {"redirect_by_id", true}};
    if (transferred) {
      config["repos"]["o/r"]["moved_objects"] = {{"45", {{"repo", "x/y"}, {"number", 45}}}};
      config["repos"]["x/y"] = {{"issues", 45}, {"id_base", 7000000}};
    }
    if (c == Case::kPullRequest) config["repos"]["o/r"] = {{"issues", 50}, {"prs", 5}, {"hidden", {44}}};
    if (c == Case::kDeleted) config["repos"]["o/r"] = {{"issues", 50}, {"deleted", {45}}};
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    EXPECT_EQ(mine(db, options_for(server)).stats.requests, 4);
    auto o = options_for(server);
    o.verify = true;
    auto s = mine(db, o);
    ASSERT_EQ(s.verified.size(), 1u);
    if (c == Case::kDeleted) {
      EXPECT_TRUE(s.renamed.empty());
      ASSERT_EQ(s.verified[0].missing.size(), 1u);
      EXPECT_EQ(s.verified[0].missing[0], (std::pair<int64_t, std::string>{45, "410: deleted"}));
      continue;
    }
    ASSERT_EQ(s.renamed.size(), 1u);
    EXPECT_EQ(s.renamed[0].second, "o/new");
    EXPECT_EQ(s.verified[0].repo, "o/new");
    if (c == Case::kPullRequest) {
      EXPECT_TRUE(s.verified[0].missing.empty());
      EXPECT_EQ(s.verified[0].pull_requests, 5);
      EXPECT_FALSE(datasets::find_issue(db, "o/new", 44));
    } else if (transferred) {
      ASSERT_EQ(s.verified[0].missing.size(), 1u);
      EXPECT_EQ(s.verified[0].missing[0].second, "transferred to x/y#45");
      EXPECT_FALSE(datasets::find_issue(db, "o/new", 45));
    } else {
      EXPECT_TRUE(s.verified[0].missing.empty());
      EXPECT_EQ(s.verified[0].recovered, 1);
      EXPECT_TRUE(datasets::find_issue(db, "o/new", 45));
    }
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM verify_progress"), 0);
  }
}

// A repository that fails during its verify (a malformed answer for number 3: the first mine is 4
// requests, the verify's run asks for the repository, both listings and the highest number, 5-8, the three
// numbers after it, 9-11, then numbers 1, 2, 3): the run has ended, so the next verify asks for numbers 1
// and 2 again rather than take what the failed one found.
TEST(Miner, AVerifyThatFailedLeavesNoProgressOnceItsRunHasEnded) {
  faultline::testing::FakeGitHub server(
      json{{"repos", {{"o/r", {{"issues", 10}, {"deleted", {1, 2, 3, 4}}}}}},
           {"faults", {{"14", {{"malformed", true}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  EXPECT_EQ(mine(db, options_for(server)).stats.requests, 4);
  auto o = options_for(server);
  o.verify = true;
  EXPECT_EQ(miner::mine(db, o, {}).failed.size(), 1u);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM verify_progress"), 0);
  EXPECT_EQ(mine(db, o).verified.at(0).fetched, 4);
}

// The listing is what the verify checks, so its highest number is not taken on trust: issues 29 and 30,
// the newest, are not in it yet (GitHub shows them only when asked for alone) and 28 was deleted. The
// numbers after 27 are asked for until three in a row are not there (28 deleted, 29 and 30 there, 31-33
// not): the highest is 30, 29 and 30 are stored and 28 is missing. Taken from the listing alone, the report
// said "1-27 = 27 issues, 0 missing" of a store without its two newest issues.
TEST(Miner, VerifyLooksForNumbersPastTheListingsHighest) {
  faultline::testing::FakeGitHub server(
      json{{"repos", {{"o/r", {{"issues", 30}, {"hidden", {29, 30}}, {"deleted", {28}}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.verify = true;
  const auto v = mine(db, o).verified.at(0);
  EXPECT_EQ(v.highest_number, 30);
  EXPECT_EQ(v.recovered, 2);
  EXPECT_EQ(v.missing, (std::vector<std::pair<int64_t, std::string>>{{28, "410: deleted"}}));
  EXPECT_EQ(datasets::count_issues(db), 29);
  EXPECT_EQ(v.issues + v.pull_requests + static_cast<int64_t>(v.missing.size()), v.highest_number);
}

// A server that answers every number asked for alone: the search past the listing's highest (20) ends
// after 1,000 numbers, and the verify takes the numbers it found from the search rather than ask again. By
// hand: the run asks for the repository, both listings and the highest number (4), then 21 to 1020.
TEST(Miner, VerifysSearchPastTheListingStopsAfterAThousandNumbersAndAsksForEachOnce) {
  faultline::testing::FakeGitHub server(json{{"repos", {{"o/r", {{"issues", 20}}}}}, {"every_number", true}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  auto o = options_for(server);
  o.verify = true;
  const auto s = mine(db, o);
  EXPECT_EQ(s.stats.requests, 4 + 1000);
  const auto& v = s.verified.at(0);
  EXPECT_EQ(v.highest_number, 1020);
  EXPECT_EQ(v.recovered, 1000);
  EXPECT_EQ(v.fetched, 1000);
}

// An issue deleted after it was mined, the newest: GitHub's highest number is now 39, the store holds 40. The
// verify counts up to 40, so that stored issues + pull requests + missing is the highest number.
TEST(Miner, AVerifyCountsUpToTheHighestNumberTheStoreHolds) {
  faultline::testing::FakeGitHub server(json{{"repos", {{"o/r", {{"issues", 40}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  server.control("delete?repo=o/r&issues=40");
  auto o = options_for(server);
  o.verify = true;
  const auto v = mine(db, o).verified.at(0);
  EXPECT_EQ(v.highest_number, 40);
  EXPECT_EQ(v.issues, 40);
  EXPECT_TRUE(v.missing.empty());
}

TEST(MineCommand, VerifyResultIsInTheJsonSummary) {
  faultline::testing::FakeGitHub server(verify_repo());
  faultline::testing::TempDir dir;
  auto run = run_faultline(
      "GITHUB_TOKEN=t",
      "--db " + dir.file("c.db") + " --json mine --repo o/r --verify --api-url " + server.url(), dir);
  ASSERT_EQ(run.status, 0) << run.err;
  json summary = json::parse(run.out);
  ASSERT_EQ(summary["verify"].size(), 1u);
  EXPECT_EQ(summary["verify"][0]["highest_number"], 35);
  EXPECT_EQ(summary["verify"][0]["missing"].size(), 3u);
  EXPECT_EQ(summary["verify"][0]["missing"][1]["reason"], "transferred to x/y#13");
}

// ---- The token stays with GitHub ----

TEST(Miner, LinkToAnotherOriginIsRefusedAndNeverGetsTheToken) {
  json config = standard_repo();
  config["link_host"] = "localhost";  // same server, another origin than 127.0.0.1
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.tokens = {"secret-token"};
  try {
    mine(db, o);
    FAIL() << "a Link to another origin was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("another origin (http://localhost:"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("secret-token"), std::string::npos);
  }
  auto stats = server.control("stats");
  EXPECT_FALSE(stats["authorized_hosts"].contains("localhost")) << stats.dump();
  EXPECT_EQ(datasets::count_issues(db), 0);  // the page that named it is not stored
}

TEST(Miner, CrossOriginRedirectIsFollowedWithoutTheToken) {
  json config = standard_repo();
  config["renamed"] = {{"old/name", "o/r"}};
  config["redirect_host"] = "localhost";  // Location: http://localhost:PORT/repos/o/r
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server, {"old/name"});
  o.api.tokens = {"secret-token"};
  auto s = mine(db, o);
  EXPECT_EQ(datasets::count_issues(db), 250);
  auto stats = server.control("stats");
  EXPECT_FALSE(stats["authorized_hosts"].contains("localhost")) << stats.dump();
  EXPECT_EQ(stats["authorized_hosts"]["127.0.0.1"], s.stats.requests - 1);  // all but the redirected one
}

TEST(Miner, ApiUrlWithCredentialsIsRefusedBeforeAnyRequest) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.base_url = "http://u:TOKEN123@" + server.url().substr(7);
  try {
    mine(db, o);
    FAIL() << "credentials in the URL were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("TOKEN123"), std::string::npos) << e.what();
  }
  EXPECT_EQ(server.requests(), 0);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM http_cache"), 0);
}

TEST(MineCommand, WarnsOnceWhenNoTokenIsSet) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  std::string args = "--db " + dir.file("c.db") + " mine --repo o/r --api-url " + server.url();
  auto anonymous = run_faultline("", args, dir);
  ASSERT_EQ(anonymous.status, 0) << anonymous.err;
  EXPECT_EQ(occurrences(anonymous.err, "GITHUB_TOKEN is not set"), 1u) << anonymous.err;
  auto with_token = run_faultline("GITHUB_TOKEN=t", args, dir);
  EXPECT_EQ(occurrences(with_token.err, "GITHUB_TOKEN is not set"), 0u) << with_token.err;
}

// ---- Bounded, visible waits ----

TEST(MineCommand, WaitingIsSaidOnStderrEvenWhenItIsNotATerminal) {
  json config = standard_repo();
  // The first issue page of each run: request 2, and 14 = 11 + 1 (the retry) + the second run's 2.
  json spent = {{"status", 403}, {"remaining", 0}, {"reset_in", 1}};
  config["faults"] = {{"2", spent}, {"14", spent}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  std::string args = " mine --repo o/r --api-url " + server.url();
  auto said = run_faultline("GITHUB_TOKEN=t", "--db " + dir.file("a.db") + args, dir);  // stderr: a file
  ASSERT_EQ(said.status, 0) << said.err;
  EXPECT_EQ(occurrences(said.err, "for the rate limit to reset (until "), 1u) << said.err;
  auto quiet = run_faultline("GITHUB_TOKEN=t", "--db " + dir.file("b.db") + args + " --quiet", dir);
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(occurrences(quiet.err, "waiting"), 0u) << quiet.err;
  EXPECT_EQ(server.requests(), 2 * 12);  // both runs met the spent limit
}

TEST(Miner, ResetBeyondMaxWaitStopsCleanlyAndSaysWhenToRunAgain) {
  json config = standard_repo();
  config["faults"] = {{"3", {{"status", 403}, {"remaining", 0}, {"reset_at", 9999999999LL}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto s = mine(db, options_for(server));  // default --max-wait: an hour
  EXPECT_TRUE(s.stopped_early);
  // 9999999999 + 1 s of margin = 10^10 s = 2286-11-20T17:46:40Z (Python's datetime.utcfromtimestamp).
  EXPECT_NE(s.stop_reason.find("run the same command again after 2286-11-20T17:46:40Z"), std::string::npos)
      << s.stop_reason;
  EXPECT_EQ(s.stop_reason.find("-2147483648"), std::string::npos);
  EXPECT_EQ(datasets::count_issues(db), 90);  // page 1 kept
  auto rest = mine(db, options_for(server));  // resumable
  EXPECT_FALSE(rest.stopped_early);
  EXPECT_EQ(datasets::count_issues(db), 250);
  // A reset past the year 9999 has no date: none is printed (it printed "1623969461-01-00T…").
  config["faults"] = {{"2", {{"status", 403}, {"remaining", 0}, {"reset_at", 99999999999999LL}}}};
  faultline::testing::FakeGitHub absurd(config);
  datasets::Database other(dir.file("absurd.db"));
  auto stopped = mine(other, options_for(absurd));
  EXPECT_TRUE(stopped.stopped_early);
  EXPECT_NE(stopped.stop_reason.find("stopped instead of waiting longer for"), std::string::npos)
      << stopped.stop_reason;
  EXPECT_NE(stopped.stop_reason.find("run the same command again later: GitHub named no time before the year "
                                     "10000"),
            std::string::npos)
      << stopped.stop_reason;
}

TEST(Miner, WaitingIsReportedAtLeastOncePerInterval) {
  json config = standard_repo();
  config["faults"] = {{"2", {{"status", 403}, {"remaining", 0}, {"reset_in", 150}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  FakeSleep sleep;
  sleep.install(o.api);
  auto s = mine(db, o);
  EXPECT_EQ(s.stats.rate_limit_waits, 1);
  EXPECT_NEAR(sleep.slept, 151, 2);   // reset 150 s ahead + 1 s margin
  ASSERT_EQ(sleep.lines.size(), 3u);  // at 151, 91 and 31 s left: never a minute of silence
  EXPECT_EQ(sleep.lines[0].rfind("waiting 15", 0), 0u) << sleep.lines[0];
  EXPECT_NE(sleep.lines[0].find("for the rate limit to reset (until "), std::string::npos) << sleep.lines[0];
  EXPECT_EQ(datasets::count_issues(db), 250);
}

TEST(Miner, RetryAfterOnEveryResponseEndsAfterTheRetryBudget) {
  json config = standard_repo();
  config["always"] = {{"status", 403}, {"retry_after", 1}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  FakeSleep sleep;
  sleep.install(o.api);
  try {
    mine(db, o);
    FAIL() << "kept retrying";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gave up after 5 retries"), std::string::npos) << e.what();
  }
  EXPECT_EQ(server.requests(), 1 + 5);
  EXPECT_EQ(sleep.slept, 5.0);
}

TEST(Miner, HttpDateRetryAfterIsWaitedInFull) {
  json config = standard_repo();
  config["faults"] = {{"2", {{"status", 429}, {"retry_after_date", 120}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  FakeSleep sleep;
  sleep.install(o.api);
  auto s = mine(db, o);
  EXPECT_NEAR(sleep.slept, 120, 2);  // the date has whole seconds
  EXPECT_EQ(s.stats.rate_limit_waits, 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
}

// A server that accepts the request and then sends nothing: the connection is given up after the stall time
// and the request retried, instead of waiting out the request's whole limit (120 s) on each try.
TEST(Miner, ASilentConnectionIsDroppedAfterTheStallTimeAndRetried) {
  for (long stall_seconds : {1L, 5L}) {
    SCOPED_TRACE("stall time " + std::to_string(stall_seconds) + " s, the server silent for 2.5 s");
    json config = standard_repo();
    config["faults"] = {{"1", {{"stall_ms", 2500}}}};
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    auto o = options_for(server);
    o.api.stall_seconds = stall_seconds;
    auto s = mine(db, o);
    EXPECT_EQ(s.stats.retries, stall_seconds < 2.5 ? 1 : 0);
    EXPECT_EQ(s.issues, 250);
  }
}

TEST(Miner, DecompressionBombIsRefusedWithAClearError) {
  json config = standard_repo();
  config["faults"] = {{"2", {{"gzip_bomb", 8 << 20}}}};  // ~8 KB of gzip that expands to 8 MiB
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.max_response_bytes = 1 << 20;
  try {
    mine(db, o);
    FAIL() << "the bomb was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/repos/o/r/issues?"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("exceeds 1 MiB once decompressed"), std::string::npos) << e.what();
  }
}

TEST(Miner, CommentsOfDeletedUsersAreStoredAsGhost) {
  json config = standard_repo();
  config["repos"]["o/r"]["ghost_every"] = 10;  // comments 10, 20, …: user null or login null
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  EXPECT_EQ(datasets::count_comments(db), 420);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM comments WHERE author = 'ghost'"), 42);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM comments WHERE author = 'maintainer'"), 420 - 42);
}

// ---- Renames ----

TEST(Miner, OldNameAfterARecordedRenameRefreshesTheOneRepository) {
  json config = standard_repo();
  config["renamed"] = {{"old/name", "o/r"}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server, {"old/name"}));
  auto again = mine(db, options_for(server, {"old/name"}));
  EXPECT_EQ(again.stats.requests, 3);
  EXPECT_EQ(again.stats.not_modified, 3);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM repositories"), 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
}

namespace {

// Mines o/r, renames it o/new on the server and refreshes under the old name: the rename is recorded once and
// either name then refreshes the one repository.
void renamed_on_refresh(faultline::testing::FakeGitHub& server) {
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  server.control("rename?from=o/r&to=o/new");
  auto refresh = mine(db, options_for(server));
  ASSERT_EQ(refresh.renamed.size(), 1u);
  EXPECT_EQ(refresh.renamed[0], (std::pair<std::string, std::string>{"o/r", "o/new"}));
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM repositories"), 1);
  EXPECT_TRUE(datasets::find_repository(db, "o/new"));
  // Either name now refreshes the one repository, with validators found under the new name's URLs.
  for (const char* name : {"o/new", "o/r"}) {
    auto s = mine(db, options_for(server, {name}));
    EXPECT_EQ(s.stats.requests, 3) << name;
    EXPECT_EQ(s.stats.not_modified, 3) << name;
    EXPECT_TRUE(s.renamed.empty()) << name;
  }
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM repositories"), 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
}

}  // namespace

TEST(Miner, RenameAfterTheFirstMineIsNoticedOnRefreshAndKeepsOneRepository) {
  for (bool by_id : {false, true}) {
    SCOPED_TRACE(by_id ? "redirected to /repositories/ID, as GitHub does" : "redirected to the new name");
    json config = standard_repo();
    config["redirect_by_id"] = by_id;
    faultline::testing::FakeGitHub server(config);
    renamed_on_refresh(server);
  }
}

// Renamed while the first mine reads its issues (a listing page redirected to the new name, request 3):
// the repository is asked for again under its new name, so that the next refresh finds its validator and
// is 3 requests, all 304 (its validator stayed under the old name: the refresh asked for it in full).
TEST(Miner, ARenameNoticedMidListingLeavesTheNextRefreshAllNotModified) {
  json config = standard_repo();
  config["rename_at"] = {{"3", {{"from", "o/r"}, {"to", "o/new"}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto first = mine(db, options_for(server));
  ASSERT_EQ(first.renamed.size(), 1u);
  EXPECT_EQ(datasets::count_issues(db), 250);
  auto refresh = mine(db, options_for(server, {"o/new"}));
  EXPECT_EQ(refresh.stats.requests, 3);
  EXPECT_EQ(refresh.stats.not_modified, 3);
}

// A rename to a name GitHub could not give is refused whether the repository's own answer says it (the
// refresh's first request) or a listing is redirected to it (renamed while the listing is read).
TEST(Miner, ARedirectToANameThatIsNoRepositoryNameIsRefusedAndNothingIsRenamed) {
  for (bool mid_listing : {false, true}) {
    SCOPED_TRACE(mid_listing ? "renamed before the refresh's first listing page"
                             : "renamed before the refresh");
    json config = standard_repo();
    // Requests 1-11 are the first mine, 12 the refresh's request for the repository.
    if (mid_listing) config["rename_at"] = {{"13", {{"from", "o/r"}, {"to", "bad-/r"}}}};
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    mine(db, options_for(server));
    if (!mid_listing) server.control("rename?from=o/r&to=bad-/r");  // an owner cannot end with '-'
    try {
      mine(db, options_for(server));
      ADD_FAILURE() << "refreshed through a redirect to bad-/r";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(mid_listing ? "redirected to " : "/repos/bad-/r: full_name: "),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("repo 'bad-/r' is not of the form OWNER/NAME"), std::string::npos)
          << e.what();
    }
    EXPECT_TRUE(datasets::find_repository(db, "o/r"));
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM repositories"), 1);
  }
  // The same rename to a good name is followed (RenameAfterTheFirstMine… above).
}

TEST(Miner, NewNameMinedFirstAfterAnUnnoticedRenameIsTheStoredRepository) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  server.control("rename?from=o/r&to=o/new");
  auto s = mine(db, options_for(server, {"o/new"}));  // GitHub's repository id is the same
  ASSERT_EQ(s.renamed.size(), 1u);
  EXPECT_EQ(s.renamed[0].first, "o/r");
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM repositories"), 1);
  EXPECT_EQ(datasets::count_issues(db), 250);  // not 500
}

// The stored repository renamed away and its old name given to a new repository: the refresh's first
// request, for the repository itself, shows another GitHub id under the name, and nothing more is asked or
// stored (the newcomer's issues under numbers the store never held would have joined the old repository).
// Mined under its new name, the stored repository is found by its id and refreshed.
TEST(Miner, ANameGivenToAnotherRepositoryIsRefusedBeforeAnyOfItsIssues) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  server.control("rename?from=o/r&to=o/moved");
  server.control("take?name=o/r&issues=400");  // numbers 1-400: 281-400 never stored
  const long before = server.requests();
  // The fake gives repositories ids 1, 2, … in order: the stored one is 1, the newcomer 2.
  const std::string refused = refusal(db, options_for(server));
  EXPECT_NE(
      refused.find("o/r is GitHub repository 2 now, but the store's o/r is GitHub repository 1: the name "
                   "belongs to another repository"),
      std::string::npos)
      << refused;
  EXPECT_EQ(server.requests(), before + 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_FALSE(datasets::find_issue(db, "o/r", 281));
  auto moved = mine(db, options_for(server, {"o/moved"}));
  ASSERT_EQ(moved.renamed.size(), 1u);
  EXPECT_EQ(moved.renamed[0], (std::pair<std::string, std::string>{"o/r", "o/moved"}));
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM repositories"), 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
}

// A redirect of a listing to another name reads as a rename, but only the new name's own answer can say it
// is one: here the first listing request is redirected to x/y, another GitHub repository (id 2, the stored
// o/r is 1). Nothing is renamed (o/r's issues would have been exported and mined as x/y's from then on) and
// nothing of x/y is stored; the next mine, not redirected, is o/r's as ever.
TEST(Miner, ARedirectToAnotherRepositoryRenamesNothing) {
  json config = standard_repo();
  config["repos"]["x/y"] = {{"issues", 5}};
  config["faults"] = {{"2", {{"redirect_to", "x/y"}}}};  // 1: GET /repos/o/r; 2: its issues' first page
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  const std::string refused = refusal(db, options_for(server));
  EXPECT_NE(refused.find("a request of o/r was redirected to x/y, which is GitHub repository 2, "
                         "not the store's o/r (GitHub repository 1): no rename"),
            std::string::npos)
      << refused;
  auto names = [&] {
    auto s = db.prepare("SELECT group_concat(full_name) FROM repositories");
    s.step();
    return s.text(0) + " aliases " + std::to_string(scalar(db, "SELECT COUNT(*) FROM repository_aliases"));
  };
  EXPECT_EQ(names(), "o/r aliases 0");
  EXPECT_EQ(datasets::count_issues(db), 0);
  const auto again = mine(db, options_for(server));
  EXPECT_TRUE(again.renamed.empty());
  EXPECT_EQ(names(), "o/r aliases 0");
  EXPECT_EQ(datasets::count_issues(db), 250);
}

// A store mined before faultline recorded GitHub's repository id (store migration 8) holds none to compare:
// its newest mined issue (279; 280 is a pull request) is asked for once instead. The same repository
// answers with the same GitHub issue and its id is recorded; a name given to another repository answers
// with another issue (ids 9000000 + number) or none, and nothing is mined or recorded.
TEST(Miner, AStoreWithoutTheRepositorysIdConfirmsItThroughItsNewestIssue) {
  // Renamed (a redirect from the stored name): GitHub's redirect says it is the same repository.
  // Or the name taken by a new repository that was renamed in turn: the old name redirects to a third one.
  enum class Now {
    kSameRepository,
    kSameWith279Transferred,
    kRenamed,
    kTakenWithAnIssue279,
    kTakenWithFiveIssues,
    kTakenAndRenamed
  };
  for (Now now : {Now::kSameRepository, Now::kSameWith279Transferred, Now::kRenamed,
                  Now::kTakenWithAnIssue279, Now::kTakenWithFiveIssues, Now::kTakenAndRenamed}) {
    SCOPED_TRACE(static_cast<int>(now));
    json config = standard_repo();
    if (now == Now::kSameWith279Transferred) {  // answered with the moved issue itself, as GitHub may
      config["repos"]["o/r"]["moved_objects"] = {{"279", {{"repo", "x/y"}, {"number", 1}}}};
      config["repos"]["x/y"] = {{"issues", 1}, {"id_base", 8000000}};
    }
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    mine(db, options_for(server));
    db.exec("UPDATE repositories SET github_id = NULL; DELETE FROM http_cache WHERE url LIKE '%/repos/o/r'");
    const bool taken =
        now == Now::kTakenWithAnIssue279 || now == Now::kTakenWithFiveIssues || now == Now::kTakenAndRenamed;
    if (now == Now::kRenamed) server.control("rename?from=o/r&to=o/moved");
    if (taken) {
      server.control("rename?from=o/r&to=o/moved");
      server.control(now == Now::kTakenWithAnIssue279 ? "take?name=o/r&issues=400"
                                                      : "take?name=o/r&issues=5");
      if (now == Now::kTakenAndRenamed) server.control("rename?from=o/r&to=o/q");
    }
    const long before = server.requests();
    try {
      auto s = mine(db, options_for(server));
      EXPECT_FALSE(taken);
      if (now == Now::kRenamed) {
        ASSERT_EQ(s.renamed.size(), 1u);
        EXPECT_EQ(scalar(db, "SELECT github_id FROM repositories WHERE full_name = 'o/moved'"), 1);
      } else {
        // The repository, issue 279 (and 278 after a transferred 279), the two listings (304).
        EXPECT_EQ(s.stats.requests, now == Now::kSameRepository ? 4 : 5);
        EXPECT_EQ(scalar(db, "SELECT github_id FROM repositories WHERE full_name = 'o/r'"), 1);
      }
    } catch (const Error& e) {
      EXPECT_TRUE(taken) << e.what();
      const std::string expected =
          now == Now::kTakenWithAnIssue279
              ? "o/r#279 is GitHub issue 9000279, but the store holds it as GitHub issue 5000279: the name "
                "belongs to another repository"
              : "o/r: none of its newest stored issues is there any more (o/r#279 (404: deleted, or not "
                "visible with this token), o/r#278 (404";
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      // The repository and one or three issues, each through a redirect too when the name was renamed.
      EXPECT_EQ(server.requests() - before, now == Now::kTakenWithAnIssue279   ? 2
                                            : now == Now::kTakenWithFiveIssues ? 4
                                                                               : 8);
      EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM repositories WHERE github_id IS NULL"), 1);
    }
    EXPECT_EQ(datasets::count_issues(db), 250);
  }
}

// A mine stopped with a cursor, then the repository renamed and its old name given to a new repository whose
// entries are newer than the cursor: the old name is refused, and the new name goes on with the cursor under
// the new name's URL (the old one's now lists the newcomer's issues).
TEST(Miner, ACursorFollowsARenameSoTheNewNameGoesOnWithItsOwnListing) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.max_requests = 2;  // the repository, the first issues page
  EXPECT_TRUE(mine(db, o).stopped_early);
  server.control("rename?from=o/r&to=o/new");
  server.control("take?name=o/r&issues=5&after=1");
  EXPECT_THROW(mine(db, options_for(server)), Error);
  auto s = mine(db, options_for(server, {"o/new"}));
  ASSERT_EQ(s.renamed.size(), 1u);
  EXPECT_EQ(datasets::count_issues(db), 250);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues WHERE json_extract(raw_json, '$.id') >= 9000000"), 0);
}

// ---- Token pool ----

TEST(Miner, ThreeTokensOfFiftyRequestsMineA120PageRepositoryWithoutWaiting) {
  // 11,900 issues: ceil(11899/99) = 121 issue pages + the repository + the mark request + one (empty)
  // comment page = 124 requests, more than two tokens allow and fewer than three.
  json config = {{"repos", {{"o/r", {{"issues", 11900}}}}},
                 {"token_budgets", {{"t1", 50}, {"t2", 50}, {"t3", 50}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.tokens = {"t1", "t2", "t3"};
  FakeSleep sleep;
  sleep.install(o.api);
  auto s = mine(db, o);
  EXPECT_EQ(s.stats.requests, 124);
  EXPECT_EQ(s.stats.rate_limit_waits, 0);
  EXPECT_EQ(sleep.slept, 0.0);
  EXPECT_EQ(datasets::count_issues(db), 11900);
  auto tokens = server.control("stats")["tokens"];
  long total = 0;
  for (const char* t : {"t1", "t2", "t3"}) {
    EXPECT_LE(tokens[t].get<long>(), 50) << t;
    total += tokens[t].get<long>();
  }
  EXPECT_EQ(total, 124);
}

TEST(Miner, PoolWaitsOnlyWhenEveryTokenIsSpent) {
  json config = {{"repos", {{"o/r", {{"issues", 1000}}}}}, {"token_budgets", {{"t1", 4}, {"t2", 4}}}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.tokens = {"t1", "t2"};
  o.api.max_wait_s = 600;
  FakeSleep sleep;
  sleep.install(o.api);
  auto s = mine(db, o);
  // 1 + ceil(999/99) = 11 pages + repository + mark + comments = 14 requests for 4 + 4 allowed: the
  // ninth finds both tokens spent, with their resets an hour away, over --max-wait.
  EXPECT_TRUE(s.stopped_early);
  EXPECT_NE(s.stop_reason.find("the rate limits of all tokens to reset"), std::string::npos) << s.stop_reason;
  EXPECT_EQ(s.stats.requests, 8);
}

TEST(Miner, TokenAnswered401IsDroppedWithAWarningNamingItsPosition) {
  json config = standard_repo();
  config["token_budgets"] = {{"good", 1000}};
  faultline::testing::FakeGitHub server(config);
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.tokens = {"bad-secret", "good"};
  std::vector<std::string> warnings;
  o.api.on_warning = [&](const std::string& w) { warnings.push_back(w); };
  auto s = mine(db, o);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("token 1 of 2"), std::string::npos) << warnings[0];
  EXPECT_EQ(warnings[0].find("bad-secret"), std::string::npos) << warnings[0];
  EXPECT_EQ(s.stats.requests, 11 + 1);
  EXPECT_EQ(datasets::count_issues(db), 250);
}

// 250 issues edited in one second (a bulk edit). GitHub's next links percent-encode the cursor
// ("since=2024-01-01T00%3A00%3A00Z"): read as it stood, it never equalled the page's second, and the third
// page sent the miner back to the first. By hand: pages of 100, 100 and 50 by GitHub's next links.
TEST(Miner, OverTwoPagesOfEntriesInOneSecondAreAllStoredAndARefreshSeesWhatComesAfterThem) {
  faultline::testing::FakeGitHub server(json{{"repos", {{"o/r", {{"issues", 250}, {"one_second", true}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  EXPECT_EQ(mine(db, options_for(server)).issues, 250);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues"), 250);
  // Issue 240 (on the third page) edited a minute later comes after the 250 at the mark. The refresh's
  // first page (since the mark) is the same 100 entries as before: had its validator been kept, a 304
  // would hide the edit for good.
  server.control("touch?repo=o/r&issues=240");
  auto refresh = mine(db, options_for(server));
  EXPECT_EQ(refresh.issues, 1);
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 240)).title, "Kernel crash 240 (v1)");
}

// Within one second's 250 entries the miner pages by GitHub's page numbers. Issue 5 edited just before
// request 4 (by hand: 1 the repository, 2 the first page with no since, 3 since that second's first page,
// 4 its page 2) leaves for the end, and every entry after it moves up one place: #101 moves from page 2 to
// page 1, already read. Reading the second again once its last page is read finds #101 (without it, 249
// were stored and a refresh never saw #101 again).
TEST(Miner, AnEntryEditedWhileOneSecondIsPagedByNumberLosesNoNeighbour) {
  faultline::testing::FakeGitHub server(json{{"repos", {{"o/r", {{"issues", 250}, {"one_second", true}}}}},
                                             {"touch_at", {{"4", {{"repo", "o/r"}, {"issues", {5}}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues"), 250);
  EXPECT_TRUE(datasets::find_issue(db, "o/r", 101).has_value());
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 5)).title, "Kernel crash 5 (v1)");
}

// The same edit, the mine stopped by --max-requests 4 after page 2 (#101 has just moved onto page 1): the
// next run resumes at the second's last page, and the cursor says the reading it is in stored something, so
// the second is read again (without that, 249 were stored for good). A cursor an earlier faultline saved
// there says nothing of a reading (group_reading 0): it counts as having stored something too.
TEST(Miner, AMineStoppedWithinOneSecondsPagesReadsThatSecondAgainWhenItResumes) {
  for (const bool older_cursor : {false, true}) {
    SCOPED_TRACE(older_cursor);
    faultline::testing::FakeGitHub server(json{{"repos", {{"o/r", {{"issues", 250}, {"one_second", true}}}}},
                                               {"touch_at", {{"4", {{"repo", "o/r"}, {"issues", {5}}}}}}});
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    auto o = options_for(server);
    o.api.max_requests = 4;
    EXPECT_TRUE(mine(db, o).stopped_early);
    EXPECT_EQ(scalar(db, "SELECT group_reading FROM mine_cursors WHERE listing = 'issues'"), 1);
    if (older_cursor) db.exec("UPDATE mine_cursors SET group_reading = 0, group_stored = 0");
    EXPECT_FALSE(mine(db, options_for(server)).stopped_early);
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues"), 250);
    EXPECT_TRUE(datasets::find_issue(db, "o/r", 101).has_value());
  }
}

// 250 issues and 30 pull requests in one second, mined by runs of 4 requests. A reading counts what it
// stored, pull requests the store did not know included, and the cursor keeps it: each run goes on with
// the reading it was stopped in, so the runs end. (Counting pull requests first seen in a run, every run's
// reading "stored" something and read the second again: runs of 4 never ended.) Then a refresh with nothing
// changed reads the second once, by hand 6 requests: the repository, the overlap before the mark, the
// second's 3 pages, the comments.
TEST(Miner, ShortRunsThroughOneSecondsPagesEndAndARefreshReadsThemOnce) {
  faultline::testing::FakeGitHub server(
      json{{"repos", {{"o/r", {{"issues", 250}, {"prs", 30}, {"one_second", true}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.api.max_requests = 4;
  int runs = 1;
  while (mine(db, o).stopped_early && runs < 30) ++runs;
  EXPECT_LT(runs, 30);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues"), 250);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM mine_cursors"), 0);
  EXPECT_EQ(mine(db, options_for(server)).stats.requests, 6);
}

// A bot closes and labels an issue in one second: the second version has the first's updated_at.
TEST(Miner, AnIssueEditedAgainWithinItsOwnSecondIsStoredAgain) {
  faultline::testing::FakeGitHub server(standard_repo());
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  server.control("touch?repo=o/r&issues=9");  // issue 9 is now the newest entry, the mark
  EXPECT_EQ(mine(db, options_for(server)).issues, 1);
  server.control("touch?repo=o/r&issues=9&same_second=1");  // edited again in the mark's second
  EXPECT_EQ(mine(db, options_for(server)).issues, 1);
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 9)).title, "Kernel crash 9 (v2)");
  EXPECT_EQ(mine(db, options_for(server)).issues, 0);  // as stored: skipped
}

// The cursor trusts the listing's order; an entry out of it, or from the future (a time in 2099 would be
// the mark, and every later refresh would ask for nothing), stops the mine with the page unstored. The future
// begins half of --overlap (300 s) after the answer's Date (the fake's is this machine's clock): an entry 20
// hours ahead, the mark, would have let the next refresh pass over every edit of those hours.
TEST(Miner, AListingOutOfOrderOrFromTheFutureIsRefusedAndItsPageNotStored) {
  struct Case {
    const char* entry;
    std::string updated;
    const char* expected;  // in the message; empty: stored
  };
  // The hours ahead and the minute ahead are the newest entry's (issue 20's): the mark, were it stored.
  for (const Case& c : std::vector<Case>{
           {"7", "2023-06-01T00:00:00Z", "comes after"},
           {"7", "2099-01-01T00:00:00Z", "is in the future"},
           {"20", faultline::common::format_iso8601(std::time(nullptr) + 20 * 3600), "is in the future"},
           {"20", faultline::common::format_iso8601(std::time(nullptr) + 60), ""}}) {
    faultline::testing::FakeGitHub server(
        json{{"repos",
              {{"o/r",
                {{"issues", 20}, {"overrides", {{"issues", {{c.entry, {{"updated_at", c.updated}}}}}}}}}}}});
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    try {
      mine(db, options_for(server));
      EXPECT_EQ(std::string(c.expected), "") << c.updated << ": mined";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("updated_at '" + c.updated + "' " + c.expected), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues"), *c.expected ? 0 : 20) << c.updated;
  }
}

// A 304 to a request that named no stored version (a misbehaving cache) would end the listing as if
// nothing had changed; a Link rel="next" that leads back to the page would loop forever.
TEST(Miner, A304WithoutAValidatorAndALinkBackToThePageAreErrors) {
  // To the request for the repository (1) and to the first listing page (2): neither named a version. And
  // to a refresh of a server that sends no validators (the first mine is requests 1-6), which keeps none.
  for (const char* request : {"1", "2", "7", "8"}) {
    SCOPED_TRACE(std::string("a 304 to request ") + request);
    const bool refresh = request[0] > '6';
    json config = {{"repos", {{"o/r", {{"issues", 250}}}}}, {"faults", {{request, {{"status", 304}}}}}};
    if (refresh) config["no_validators"] = true;
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    if (refresh) {
      // The repository, 3 issue pages, the walk from the mark, the (empty) comments.
      EXPECT_EQ(mine(db, options_for(server)).stats.requests, 6);
    }
    const std::string refused = refusal(db, options_for(server));
    EXPECT_NE(refused.find("answered 304 Not Modified to a request that named no stored version"),
              std::string::npos)
        << refused;
    EXPECT_EQ(datasets::count_issues(db), refresh ? 250 : 0);
  }
  faultline::testing::FakeGitHub server(
      json{{"repos", {{"o/r", {{"issues", 150}, {"one_second", true}, {"self_link", true}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  const std::string refused = refusal(db, options_for(server));
  EXPECT_NE(refused.find("the issues listing leads back to a page already read"), std::string::npos)
      << refused;
  EXPECT_LT(server.requests(), 5);
}

// A name renamed away and taken by a new repository: the new one's issue #N is another issue than the
// stored #N (another GitHub id) and is not written over it.
TEST(Miner, AnotherIssueUnderAStoredNumberIsNotWrittenOverIt) {
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  {
    faultline::testing::FakeGitHub first(json{{"repos", {{"o/r", {{"issues", 20}}}}}});
    mine(db, options_for(first));
  }
  const std::string before = datasets::load_issue(db, *datasets::find_issue(db, "o/r", 20)).raw_json.value();
  faultline::testing::FakeGitHub taken(json{{"repos", {{"o/r", {{"issues", 20}, {"id_base", 7000000}}}}}});
  // The refresh asks from ten minutes before the mark (issue 20): issues 10 to 20, a minute apart.
  const std::string refused = refusal(db, options_for(taken));
  EXPECT_NE(refused.find("o/r#10 is GitHub issue 7000010, but the store holds it as GitHub issue 5000010"),
            std::string::npos)
      << refused;
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 20)).raw_json.value(), before);
  // The same repository again (the same ids) refreshes as ever.
  faultline::testing::FakeGitHub same(json{{"repos", {{"o/r", {{"issues", 20}}}}}});
  EXPECT_NO_THROW(mine(db, options_for(same)));
}

// GitHub may answer a transferred issue's old URL with the moved issue itself: x/y#1 is not o/r#3, and
// storing it as o/r's issue 1 (its number) would overwrite the real o/r#1.
TEST(Miner, VerifyCountsAnIssueAnsweredFromAnotherRepositoryAsTransferred) {
  faultline::testing::FakeGitHub server(
      json{{"repos",
            {{"o/r",
              {{"issues", 5}, {"hidden", {3}}, {"moved_objects", {{"3", {{"repo", "x/y"}, {"number", 1}}}}}}},
             {"x/y", {{"issues", 2}, {"id_base", 9000000}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.verify = true;
  const auto v = mine(db, o).verified.at(0);
  EXPECT_EQ(v.recovered, 0);
  ASSERT_EQ(v.missing.size(), 1u);
  EXPECT_EQ(v.missing[0], (std::pair<int64_t, std::string>{3, "transferred to x/y#1"}));
  EXPECT_EQ(v.issues + v.pull_requests + static_cast<int64_t>(v.missing.size()), v.highest_number);
  EXPECT_EQ(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 1)).title, "Kernel crash 1 (v0)");
  EXPECT_NE(datasets::load_issue(db, *datasets::find_issue(db, "o/r", 1)).raw_json->find("\"id\":5000001"),
            std::string::npos);
}

// The repository's comments listing holds only its own comments.
TEST(Miner, ACommentOfAnotherRepositorysIssueIsRefused) {
  faultline::testing::FakeGitHub server(
      json{{"repos",
            {{"o/r",
              {{"issues", 5},
               {"comments", 6},
               {"overrides",
                {{"comments", {{"3", {{"issue_url", "http://127.0.0.1/repos/x/y/issues/1"}}}}}}}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  const std::string refused = refusal(db, options_for(server));
  EXPECT_NE(refused.find("comment 1000003 is of an issue of 'x/y'"), std::string::npos) << refused;
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM comments"), 0);
}

// Nor does its issues listing hold another repository's entries: an issue whose page is x/y's would be
// stored, exported and linked as o/r's, a pull request of x/y's would account for o/r's number 10 (which
// --verify then never asks for). GitHub's answers name the repository as it is called now (a rename is
// noticed before the listing is read), so a name it had before is refused too, though a snapshot record may
// carry one (AnItemWhoseUrlTimeOrStateIsNotGitHubsFormIsRefused: the same page in other letters is stored).
// An entry is a pull request exactly when its page is one's. Issue 5 and pull request 10 are on the first
// page, so nothing of the listing is stored.
TEST(Miner, AnEntryWhosePageIsAnotherRepositorysOrAnotherKindsIsRefused) {
  struct Case {
    const char* entry;
    std::string html_url;
    std::string expected;
  };
  for (const Case& c : std::vector<Case>{
           {"5", "https://github.com/x/y/issues/5",
            "html_url 'https://github.com/x/y/issues/5' of issue 5 is a page of another repository ('x/y'), "
            "not of o/r"},
           {"5", "https://github.com/o/former-name/issues/5",
            "is a page of another repository ('o/former-name')"},
           {"10", "https://github.com/x/y/pull/10",
            "html_url 'https://github.com/x/y/pull/10' of pull request 10 is a page of another repository"},
           {"5", "https://github.com/o/r/pull/5",
            "html_url 'https://github.com/o/r/pull/5' of issue 5 is the page of a pull request"},
           {"10", "https://github.com/o/r/issues/10",
            "html_url 'https://github.com/o/r/issues/10' of pull request 10 is the page of an issue"},
           {"10", "https://github.com/o/r/pull/11", "(it is the page of issue 11, not of 10)"}}) {
    json config = standard_repo();
    config["repos"]["o/r"]["overrides"] = {{"issues", {{c.entry, {{"html_url", c.html_url}}}}}};
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    const std::string refused = refusal(db, options_for(server));
    EXPECT_NE(refused.find(c.expected), std::string::npos) << refused;
    EXPECT_EQ(datasets::count_issues(db), 0) << c.html_url;
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM listing_pull_requests"), 0) << c.html_url;
  }
}

// --verify looks every number up to the highest in the store at once: an absurd highest number (here
// 10^12, the newest issue's) is refused before it fills the memory.
TEST(Miner, VerifyRefusesAnAbsurdHighestNumber) {
  faultline::testing::FakeGitHub server(
      json{{"repos",
            {{"o/r",
              {{"issues", 5},
               {"overrides",
                {{"issues",
                  {{"5",
                    {{"number", 1000000000000},
                     {"html_url", "https://github.com/o/r/issues/1000000000000"}}}}}}}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto o = options_for(server);
  o.verify = true;
  try {
    mine(db, o);
    ADD_FAILURE() << "verified";
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("the highest number is 1000000000000, more than --verify accounts for "
                                   "(10000000)"),
        std::string::npos)
        << e.what();
  }
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues"), 5);  // the listing itself was stored
}

// One repository's error (here: unknown to GitHub) stops that one; the others are mined, the summary says
// which failed and why, and the command exits 1 after printing it.
TEST(Miner, ARepositoryThatFailsStopsItselfNotTheOthers) {
  faultline::testing::FakeGitHub server(json{{"repos", {{"o/r", {{"issues", 5}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  auto s = miner::mine(db, options_for(server, {"o/gone", "o/r"}), {});
  ASSERT_EQ(s.failed.size(), 1u);
  EXPECT_EQ(s.failed[0].first, "o/gone");
  EXPECT_NE(s.failed[0].second.find("404"), std::string::npos) << s.failed[0].second;
  EXPECT_EQ(s.issues, 5);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM issues"), 5);
  auto run = run_faultline(
      "GITHUB_TOKEN=x",
      "--db " + dir.file("c.db") + " mine --repo o/gone --repo o/r --api-url " + server.url(), dir);
  EXPECT_EQ(WEXITSTATUS(run.status), 1);
  EXPECT_EQ(run.out.rfind("mined 1 repository (1 failed, below): 5 issues", 0), 0u) << run.out;
  EXPECT_NE(run.err.find("faultline: mine o/gone: "), std::string::npos) << run.err;
}

// Exactly a page of entries in the mark's second: the listing's last page is full, and a new issue comes
// after it on a page of its own. Had the full page kept its validator, the refresh would be answered 304
// (its 100 entries unchanged) and the new issue never seen.
TEST(Miner, AFullLastPageAtTheMarkKeepsNoValidatorSoANewIssueAfterItIsSeen) {
  faultline::testing::FakeGitHub server(json{{"repos", {{"o/r", {{"issues", 100}, {"one_second", true}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  EXPECT_EQ(mine(db, options_for(server)).issues, 100);
  server.control("add?repo=o/r");
  EXPECT_EQ(mine(db, options_for(server)).issues, 1);
  EXPECT_TRUE(datasets::find_issue(db, "o/r", 101));
}

// A number GitHub gave a pull request never becomes an issue: a listing saying so is of another
// repository under the name (here entry 280, a pull request of the first mine, comes back an issue).
TEST(Miner, AnIssueUnderANumberKnownAsAPullRequestIsRefused) {
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  {
    faultline::testing::FakeGitHub first(standard_repo());
    mine(db, options_for(first));
  }
  faultline::testing::FakeGitHub taken(json{{"repos", {{"o/r", {{"issues", 280}}}}}});
  // The refresh asks from ten minutes before the mark (entry 280): entries 270 to 280, a minute apart, 271
  // the first pull request among them.
  const std::string refused = refusal(db, options_for(taken));
  EXPECT_NE(refused.find("o/r#271 is listed as an issue, but the store knows it as a pull request"),
            std::string::npos)
      << refused;
  EXPECT_FALSE(datasets::find_issue(db, "o/r", 271));
  EXPECT_FALSE(datasets::find_issue(db, "o/r", 280));
}

// The other way round: 280 issues mined, then the name's listing shows 271 as a pull request. It was
// recorded as one beside the stored issue, and --verify counted the number twice.
TEST(Miner, APullRequestUnderANumberStoredAsAnIssueIsRefused) {
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  {
    faultline::testing::FakeGitHub first(json{{"repos", {{"o/r", {{"issues", 280}}}}}});
    mine(db, options_for(first));
  }
  faultline::testing::FakeGitHub taken(standard_repo());
  const std::string refused = refusal(db, options_for(taken));
  EXPECT_NE(refused.find("o/r#271 is listed as a pull request, but the store holds an issue of that number"),
            std::string::npos)
      << refused;
  EXPECT_FALSE(datasets::is_recorded_pull_request(db, *datasets::find_repository(db, "o/r"), 271));
}

// A timeline request redirected to another repository's issue (a transfer, or a misbehaving server) does not
// store that issue's events as this one's: the issue's timeline is unavailable, its stored events kept. A
// redirect by GitHub's id of the same repository (as after a rename) is followed. Requests 1-11 are the
// first mine, 12-14 the refresh's three 304s, 15 o/r#5's timeline, 16 o/r#6's.
TEST(Miner, ATimelineRedirectedToAnotherIssueIsNotStoredAsThisOnes) {
  for (const bool hostile : {true, false}) {
    json config = standard_repo();
    config["repos"]["x/y"] = {{"issues", 6}};
    if (hostile) {
      config["faults"] = {{"15", {{"redirect_to", "x/y"}}}};
    } else {
      config["rename_at"] = {{"15", {{"from", "o/r"}, {"to", "o/new"}}}};
      config["redirect_by_id"] = true;
    }
    faultline::testing::FakeGitHub server(config);
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    mine(db, options_for(server));
    sample_issues(db, {5, 6});
    auto o = options_for(server);
    o.timeline = true;
    const auto s = mine(db, o);
    if (hostile) {
      ASSERT_EQ(s.timelines_unavailable.size(), 1u);
      EXPECT_EQ(s.timelines_unavailable[0].first, "o/r#5");
      EXPECT_NE(s.timelines_unavailable[0].second.find("/repos/x/y/issues/5/timeline"), std::string::npos)
          << s.timelines_unavailable[0].second;
      EXPECT_EQ(s.timeline_events, 3);  // o/r#6's
    } else {
      EXPECT_TRUE(s.timelines_unavailable.empty());
      EXPECT_EQ(s.timeline_events, 6);
    }
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM timeline_events WHERE reference LIKE '%/x/y/%'"), 0);
  }
}

// An empty page with a next link would be followed forever (each link new); one issue's malformed timeline
// is listed and the next issue's timeline still fetched.
TEST(Miner, AnEmptyPageWithANextLinkAndABadTimelineStopOnlyWhatTheyConcern) {
  {
    faultline::testing::FakeGitHub server(json{{"repos", {{"o/r", {{"issues", 0}, {"self_link", true}}}}}});
    faultline::testing::TempDir dir;
    datasets::Database db(dir.file("m.db"));
    const std::string refused = refusal(db, options_for(server));
    EXPECT_NE(refused.find(": an empty page with a next link"), std::string::npos) << refused;
  }
  // Requests 1-11 are the first mine (above), 12-14 the refresh's three 304s, 15 the first timeline.
  faultline::testing::FakeGitHub server(
      json{{"repos", {{"o/r", {{"issues", 250}, {"prs", 30}, {"comments", 420}}}}},
           {"faults", {{"15", {{"malformed", true}}}}}});
  faultline::testing::TempDir dir;
  datasets::Database db(dir.file("m.db"));
  mine(db, options_for(server));
  sample_issues(db, {5, 6});
  auto o = options_for(server);
  o.timeline = true;
  auto s = mine(db, o);
  ASSERT_EQ(s.timelines_unavailable.size(), 1u);
  EXPECT_NE(s.timelines_unavailable[0].second.find("malformed JSON"), std::string::npos)
      << s.timelines_unavailable[0].second;
  EXPECT_EQ(s.timeline_events, 3);  // the other issue's three
}
