#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <tuple>

#include "common/error.hpp"
#include "common/work_beside.hpp"
#include "tests/temp_dir.hpp"

namespace fs = std::filesystem;
using faultline::common::remove_left_work;
using faultline::common::WorkBeside;

namespace {

// The names in `dir`, without their directory.
std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// Sets an entry's modification time two minutes back: older than the minute that keeps work safe while it
// is being made.
void age(const std::string& path) {
  fs::last_write_time(path, fs::last_write_time(path) - std::chrono::minutes(2));
}

std::string old_file(const faultline::testing::TempDir& dir, const std::string& name) {
  const std::string path = dir.write(name, "x");
  age(path);
  return path;
}

// A lock on `path` as another faultline holds its work: its own open file description, so it excludes
// this process's flock too.
int hold(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  return fd;
}

}  // namespace

TEST(WorkBeside, WorkThatNoProcessHoldsAndOlderThanAMinuteIsRemoved) {
  faultline::testing::TempDir dir;
  const std::string out = dir.file("out.csv");
  old_file(dir, ".out.csv.faultline-Ab12Cd");
  const std::string models = dir.file(".models.faultline-Zz99yy");
  fs::create_directory(models);
  dir.write(".models.faultline-Zz99yy/model.json", "{}");
  age(models);
  // A store being made: its log and shared memory, left without the store itself.
  old_file(dir, ".faultline.db.faultline-Qq11Ww-wal");
  old_file(dir, ".faultline.db.faultline-Qq11Ww-shm");
  old_file(dir, ".faultline.db.faultline-Rr22Ee-journal");

  // Each output tidies its own name only.
  remove_left_work(out);
  EXPECT_EQ(names_in(dir.path()),
            (std::set<std::string>{".models.faultline-Zz99yy", ".faultline.db.faultline-Qq11Ww-wal",
                                   ".faultline.db.faultline-Qq11Ww-shm",
                                   ".faultline.db.faultline-Rr22Ee-journal"}));
  remove_left_work(dir.file("models/"));  // a directory named with its slash
  remove_left_work(dir.file("faultline.db"));
  EXPECT_EQ(names_in(dir.path()), std::set<std::string>{});
}

TEST(WorkBeside, WorkInUseOrJustMadeStays) {
  faultline::testing::TempDir dir;
  const std::string held = old_file(dir, ".out.csv.faultline-Ab12Cd");
  const std::string young = dir.write(".out.csv.faultline-Yy00Yy", "x");  // changed just now
  // The log of a store another faultline is still making stays, however old.
  const std::string store = old_file(dir, ".faultline.db.faultline-Qq11Ww");
  old_file(dir, ".faultline.db.faultline-Qq11Ww-wal");
  const int held_fd = hold(held), store_fd = hold(store);
  remove_left_work(dir.file("out.csv"));
  remove_left_work(dir.file("faultline.db"));
  const std::set<std::string> all = {".out.csv.faultline-Ab12Cd", ".out.csv.faultline-Yy00Yy",
                                     ".faultline.db.faultline-Qq11Ww", ".faultline.db.faultline-Qq11Ww-wal"};
  EXPECT_EQ(names_in(dir.path()), all);
  // Once the holders are gone and the young one has aged, they go: the lock and the age kept them.
  close(held_fd);
  close(store_fd);
  age(young);
  remove_left_work(dir.file("out.csv"));
  remove_left_work(dir.file("faultline.db"));
  EXPECT_EQ(names_in(dir.path()), std::set<std::string>{});
}

TEST(WorkBeside, OnlyFaultlinesOwnNamesAreTouched) {
  faultline::testing::TempDir dir;
  const std::set<std::string> others = {
      ".out.csv.backup",              // the user's, six letters after the name but no mark
      ".out.csv.faultline-Ab12C",     // five random letters
      ".out.csv.faultline-Ab12Cde",   // seven
      ".out.csv.faultline-Ab12C_",    // not a letter or digit
      ".out.csv.faultline-Ab12Cd-x",  // a suffix SQLite does not use
      "out.csv.faultline-Ab12Cd",     // not hidden
      ".other.csv.faultline-Ab12Cd",  // beside another output
      ".out.csv.faultline-Ab12Cd-wal",
  };
  for (const auto& name : others) old_file(dir, name);
  // The "-wal" stays: work of its name exists, a link, which is not work.
  const std::string elsewhere = old_file(dir, "elsewhere.txt");
  fs::create_symlink(elsewhere, dir.file(".out.csv.faultline-Ab12Cd"));
  // Nor is a FIFO (opening one to lock it would wait for a writer).
  ASSERT_EQ(mkfifo(dir.file(".out.csv.faultline-Ff11Ff").c_str(), 0600), 0);
  age(dir.file(".out.csv.faultline-Ff11Ff"));
  remove_left_work(dir.file("out.csv"));
  auto expected = others;
  expected.insert({"elsewhere.txt", ".out.csv.faultline-Ab12Cd", ".out.csv.faultline-Ff11Ff"});
  EXPECT_EQ(names_in(dir.path()), expected);
}

TEST(WorkBeside, NewWorkIsHiddenBesideTheOutputLockedAndTidiesFirst) {
  faultline::testing::TempDir dir;
  old_file(dir, ".out.csv.faultline-Ab12Cd");
  int fd = -1;
  {
    const WorkBeside work = WorkBeside::file(dir.file("out.csv"), 0666, fd);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(write(fd, "new", 3), 3);
    close(fd);
    const std::string made = fs::path(work.name()).filename().string();
    EXPECT_EQ(made.substr(0, 19), ".out.csv.faultline-");
    EXPECT_EQ(made.size(), 25u);
    EXPECT_EQ(names_in(dir.path()), std::set<std::string>{made});  // the left one was removed
    // Held while it lives, even once old: another faultline's tidying leaves it.
    age(work.name());
    remove_left_work(dir.file("out.csv"));
    EXPECT_TRUE(fs::exists(work.name()));
  }
  // The same work, no longer held, goes at the next tidying.
  remove_left_work(dir.file("out.csv"));
  EXPECT_EQ(names_in(dir.path()), std::set<std::string>{});

  const std::string models = dir.file("models");
  {
    const WorkBeside work = WorkBeside::directory(models);
    EXPECT_TRUE(fs::is_directory(work.name()));
    EXPECT_EQ(fs::status(work.name()).permissions() & fs::perms::all, fs::perms::owner_all);
    age(work.name());
    remove_left_work(models);
    EXPECT_TRUE(fs::exists(work.name()));
  }
  remove_left_work(models);
  EXPECT_EQ(names_in(dir.path()), std::set<std::string>{});
}

TEST(WorkBeside, WorkThatCannotBeLockedIsAnErrorAndLeavesNothing) {
  // Unlocked work would be taken for left a minute on, by any other faultline, while still in use. A lack of
  // descriptors stands in for any failure to lock: with the limit at the lowest free descriptor + 1, mkostemp
  // gets that one and the lock's duplicate none; with the limit at it, mkdtemp needs none and the
  // directory's lock none is left.
  faultline::testing::TempDir dir;
  struct rlimit before {};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &before), 0);
  const int lowest_free = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(lowest_free, 0);
  close(lowest_free);
  auto message = [&](rlim_t limit, const auto& make) {
    struct rlimit lowered = before;
    lowered.rlim_cur = limit;
    EXPECT_EQ(setrlimit(RLIMIT_NOFILE, &lowered), 0);
    std::string what;
    try {
      make();
    } catch (const faultline::Error& e) {
      what = e.what();
    }
    EXPECT_EQ(setrlimit(RLIMIT_NOFILE, &before), 0);
    return what;
  };
  const std::string out = dir.file("out.csv"), models = dir.file("models");
  int fd = -1;
  EXPECT_EQ(message(lowest_free + 1, [&] { WorkBeside::file(out, 0666, fd); }),
            out + ": cannot lock the temporary file beside it: Too many open files");
  EXPECT_EQ(message(lowest_free, [&] { WorkBeside::directory(models); }),
            models + ": cannot lock the directory made beside it: Too many open files");
  EXPECT_EQ(names_in(dir.path()), std::set<std::string>{});
  // With descriptors to spare, both are made (the limits, not the code, made the difference).
  EXPECT_EQ(message(lowest_free + 2,
                    [&] {
                      WorkBeside::file(out, 0666, fd);
                      close(fd);
                    }),
            "");
  EXPECT_EQ(message(lowest_free + 1, [&] { WorkBeside::directory(models); }), "");
  EXPECT_EQ(names_in(dir.path()).size(), 2u);
}

TEST(WorkBeside, ANewFileHasTheModeLessTheUmask) {
  // What a file created at the output's path would get: 0666 under umask 027 is 0640, 0644 under 022 is
  // 0644 (mkostemp alone gives 0600 whatever is asked).
  faultline::testing::TempDir dir;
  const mode_t before = umask(0);  // restored at the end
  for (const auto& [mode, mask, expected] : {std::tuple<mode_t, mode_t, mode_t>{0666, 027, 0640},
                                             std::tuple<mode_t, mode_t, mode_t>{0644, 022, 0644}}) {
    umask(mask);
    int fd = -1;
    const WorkBeside work = WorkBeside::file(dir.file("out.csv"), mode, fd);
    close(fd);
    struct stat st {};
    ASSERT_EQ(stat(work.name().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, expected) << std::oct << mode;
  }
  umask(before);
}
