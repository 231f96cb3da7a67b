// Who may open a store and how: a missing store is not created by readers, a write-protected store can
// still be read, first opens by several processes at once all succeed, and a busy store says so.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "common/error.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/migrations.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;

namespace {

IssueRecord issue(int64_t number) {
  IssueRecord r;
  r.repo = "NVIDIA/cutlass";
  r.number = number;
  r.url = "https://github.com/NVIDIA/cutlass/issues/" + std::to_string(number);
  r.state = "closed";
  r.title = "issue " + std::to_string(number);
  return r;
}

std::string error_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "";
}

// Runs `work` in a child process without write permission on `dir` and its files (as user nobody
// when we are root, since root writes regardless of the mode bits); returns the child's exit status.
int run_without_write_permission(const std::filesystem::path& dir, const std::function<int()>& work) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) chmod(entry.path().c_str(), 0444);
  chmod(dir.c_str(), 0555);
  pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(90);
    int code = 91;
    try {
      code = work();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "in the child without write permission: %s\n", e.what());
    }
    _exit(code);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  chmod(dir.c_str(), 0755);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST(StoreAccess, OpeningAMissingStoreWithoutCreateNamesItAndCreatesNothing) {
  faultline::testing::TempDir dir;
  std::string path = dir.file("nosuch.db");
  std::string message = error_of([&] { Database db(path, OpenOptions{.create_if_missing = false}); });
  EXPECT_EQ(message.rfind("no store at " + path, 0), 0u) << message;
  EXPECT_FALSE(std::filesystem::exists(path));
  // The verbs that bring data in may create it.
  Database created(path, OpenOptions{.create_if_missing = true});
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(created.user_version(), latest_schema_version());
}

TEST(StoreAccess, AWriteProtectedStoreCanBeReadButNotWritten) {
  faultline::testing::TempDir dir;
  std::string path = dir.file("store.db");
  {
    Database db(path);
    upsert_issue(db, issue(1));
    upsert_issue(db, issue(2));
  }
  int read = run_without_write_permission(dir.path(), [&] {
    Database db(path, OpenOptions{.create_if_missing = false});
    return count_issues(db) == 2 ? 0 : 1;
  });
  EXPECT_EQ(read, 0) << "reading a write-protected store failed";
  int write = run_without_write_permission(dir.path(), [&] {
    Database db(path, OpenOptions{.create_if_missing = false});
    std::string message = error_of([&] { upsert_issue(db, issue(3)); });
    // It names the store and the files beside it that SQLite made with the store's permissions.
    const bool says =
        message.find("database " + path + ": the store is read-only here") != std::string::npos &&
        message.find("its -wal or -shm file") != std::string::npos;
    if (!says) std::fprintf(stderr, "the message: %s\n", message.c_str());
    return says ? 0 : 1;
  });
  EXPECT_EQ(write, 0) << "a write to a write-protected store did not say it is read-only, and where";
}

TEST(StoreAccess, ProcessesOpeningANewStoreAtOnceAllSucceed) {
  faultline::testing::TempDir dir;
  std::string path = dir.file("store.db");
  int gate[2];
  ASSERT_EQ(pipe(gate), 0);
  std::vector<pid_t> children;
  for (int i = 0; i < 12; ++i) {
    pid_t pid = fork();
    if (pid == 0) {
      close(gate[1]);
      char byte;
      (void)!read(gate[0], &byte, 1);  // released all at once when the parent closes the pipe
      try {
        Database db(path);
        _exit(db.user_version() == latest_schema_version() ? 0 : 2);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "a first open failed: %s\n", e.what());
        _exit(1);
      }
    }
    children.push_back(pid);
  }
  close(gate[0]);
  close(gate[1]);
  int failed = 0;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(failed, 0);
}

TEST(StoreAccess, ABusyStoreSaysSoAndHowLongItWaited) {
  faultline::testing::TempDir dir;
  std::string path = dir.file("store.db");
  Database holder(path);
  Database waiter(path, OpenOptions{.create_if_missing = false, .busy_timeout_ms = 200});
  holder.exec("BEGIN IMMEDIATE");
  std::string message = error_of([&] { waiter.transaction([&] { upsert_issue(waiter, issue(1)); }); });
  EXPECT_NE(message.find("the store is busy (another faultline is writing); waited 0.2 s"), std::string::npos)
      << message;
  holder.exec("COMMIT");
  EXPECT_EQ(error_of([&] { waiter.transaction([&] { upsert_issue(waiter, issue(1)); }); }), "");
  EXPECT_EQ(count_issues(waiter), 1);
}
