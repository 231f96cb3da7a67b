#include "common/work_beside.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace faultline::common {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMark = ".faultline-";
constexpr size_t kRandomLetters = 6;  // what mkstemp and mkdtemp put in place of XXXXXX
// Work modified this recently is never taken for left: a process locks its work a moment after making it.
constexpr std::chrono::seconds kYoungest{60};

// "models/" names the directory "models".
fs::path target_of(const std::string& path) {
  fs::path target(path);
  return target.filename().empty() ? target.parent_path() : target;
}

// ".NAME.faultline-", what every name of work beside `target` begins with.
std::string work_prefix(const fs::path& target) {
  std::string prefix = ".";  // appended piecewise: "." + string + … trips GCC 12's -Wrestrict at -O3
  prefix += target.filename().string();
  prefix += kMark;
  return prefix;
}

std::string template_beside(const std::string& path) {
  const fs::path target = target_of(path);
  return (target.parent_path() / (work_prefix(target) + std::string(kRandomLetters, 'X'))).string();
}

// For ".NAME.faultline-ab12CD" and a prefix ".NAME.faultline-": the rest after the six letters or digits
// ("" for work itself, "-wal" for its log); nullopt for any other name.
std::optional<std::string_view> rest_after_random(std::string_view name, std::string_view prefix) {
  if (name.size() < prefix.size() + kRandomLetters || name.substr(0, prefix.size()) != prefix)
    return std::nullopt;
  for (char c : name.substr(prefix.size(), kRandomLetters)) {
    const bool letter_or_digit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!letter_or_digit) return std::nullopt;
  }
  return name.substr(prefix.size() + kRandomLetters);
}

// The entry at `path` if it is a plain file or directory of this user, modified kYoungest ago or earlier.
std::optional<struct stat> old_enough_and_ours(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || st.st_uid != geteuid()) return std::nullopt;
  if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return std::nullopt;
  const auto modified = std::chrono::system_clock::from_time_t(st.st_mtim.tv_sec);
  if (std::chrono::system_clock::now() - modified < kYoungest) return std::nullopt;
  return st;
}

// Removes the work at `path` if no process holds it, taking its lock first so that two faultlines tidying
// at once do not both go at it. Only the very entry that was looked at and locked is removed.
void remove_if_left(const std::string& path) {
  const auto seen = old_enough_and_ours(path);
  if (!seen) return;
  const int fd =
      open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (S_ISDIR(seen->st_mode) ? O_DIRECTORY : 0));
  if (fd < 0) return;
  struct stat locked;
  // EWOULDBLOCK: in use; any other error: cannot tell, so it stays.
  if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &locked) == 0 && locked.st_dev == seen->st_dev &&
      locked.st_ino == seen->st_ino) {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  close(fd);
}

// Whether flock failed because this file system cannot lock at all (rather than for want of a descriptor).
// ENOLCK is also the kernel out of lock records, which cannot be told apart from NFS without its lock
// daemon: both go on unlocked, as the README says.
bool cannot_lock_here(int error) { return error == EOPNOTSUPP || error == ENOLCK || error == EINVAL; }

}  // namespace

void remove_left_work(const std::string& path) {
  const fs::path target = target_of(path);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const std::string prefix = work_prefix(target);
  std::vector<std::string> work, database_files;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const auto rest = rest_after_random(name, prefix);
    if (!rest) continue;
    if (rest->empty()) {
      work.push_back(it->path().string());
    } else if (std::find(kDatabaseFileSuffixes.begin(), kDatabaseFileSuffixes.end(), *rest) !=
               kDatabaseFileSuffixes.end()) {
      database_files.push_back(it->path().string());
    }
  }
  for (const auto& w : work) remove_if_left(w);
  for (const auto& f : database_files) {
    const std::string owner = f.substr(0, f.rfind('-'));
    std::error_code ignored;
    const auto seen = old_enough_and_ours(f);
    if (!fs::exists(fs::symlink_status(owner, ignored)) && seen && S_ISREG(seen->st_mode))
      fs::remove(f, ignored);
  }
}

WorkBeside WorkBeside::file(const std::string& path, mode_t mode, int& fd) {
  remove_left_work(path);
  std::string name = template_beside(path);
  fd = mkostemp(name.data(), O_CLOEXEC);  // O_CREAT|O_EXCL with a random suffix, mode 0600
  if (fd < 0) throw Error(path + ": cannot create a temporary file beside it: " + std::strerror(errno));
  auto give_up = [&](const std::string& what) {
    const int reason = errno;
    close(fd);
    fd = -1;
    unlink(name.c_str());
    throw Error(path + ": cannot " + what + " the temporary file beside it: " + std::strerror(reason));
  };
  const mode_t mask = umask(0);
  umask(mask);
  if (fchmod(fd, mode & ~mask) != 0) give_up("set the mode of");
  // Locked through the descriptor just made, before anyone could take the file for left; the lock lives
  // in the open file that a duplicate shares, so it stays when the caller closes `fd`.
  int lock_fd = -1;
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
    lock_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  } else if (cannot_lock_here(errno)) {
    return WorkBeside(name, -1);
  }
  if (lock_fd < 0) give_up("lock");
  return WorkBeside(name, lock_fd);
}

WorkBeside WorkBeside::directory(const std::string& path) {
  remove_left_work(path);
  std::string name = template_beside(path);
  if (!mkdtemp(name.data()))
    throw Error(path + ": cannot create a directory beside it: " + std::strerror(errno));
  const int lock_fd = open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY);
  if (lock_fd >= 0 && flock(lock_fd, LOCK_EX | LOCK_NB) == 0) return WorkBeside(name, lock_fd);
  const int reason = errno;
  if (lock_fd >= 0) close(lock_fd);
  if (lock_fd >= 0 && cannot_lock_here(reason)) return WorkBeside(name, -1);
  rmdir(name.c_str());
  throw Error(path + ": cannot lock the directory made beside it: " + std::strerror(reason));
}

WorkBeside::~WorkBeside() {
  if (lock_fd_ >= 0) close(lock_fd_);
}

}  // namespace faultline::common
