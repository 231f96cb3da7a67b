#include "common/work_beside.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace faultline::common {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMark = ".faultline-";
constexpr size_t kRandomLetters = 6;  // what mkstemp and mkdtemp put in place of XXXXXX
constexpr std::array<std::string_view, 3> kStoreSuffixes = {"-wal", "-shm", "-journal"};
// Work changed this recently is never taken for left: between making it and locking it, work in use is
// unlocked for a moment.
constexpr std::chrono::seconds kYoungest{60};

// "models/" names the directory "models".
fs::path target_of(const std::string& path) {
  fs::path target(path);
  return target.filename().empty() ? target.parent_path() : target;
}

std::string template_beside(const std::string& path) {
  const fs::path target = target_of(path);
  std::string name = ".";  // appended piecewise: "." + string + … trips GCC 12's -Wrestrict at -O3
  name += target.filename().string();
  name += kMark;
  name += std::string(kRandomLetters, 'X');
  return (target.parent_path() / name).string();
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

// Whether the entry at `path` is a plain file or directory of this user, changed kYoungest ago or earlier.
bool old_enough_and_ours(const std::string& path, bool& directory) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || st.st_uid != geteuid()) return false;
  if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return false;
  directory = S_ISDIR(st.st_mode);
  const auto changed = std::chrono::system_clock::from_time_t(st.st_mtim.tv_sec);
  return std::chrono::system_clock::now() - changed >= kYoungest;
}

// Removes the work at `path` if no process holds it, taking its lock first so that two faultlines tidying
// at once do not both go at it, and a process cannot take it up meanwhile.
void remove_if_left(const std::string& path) {
  bool directory = false;
  if (!old_enough_and_ours(path, directory)) return;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (directory ? O_DIRECTORY : 0));
  if (fd < 0) return;
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) {  // EWOULDBLOCK: in use; any other error: cannot tell, so keep
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  close(fd);
}

// A lock on the work just made, held until the WorkBeside is destroyed; -1 where it cannot be had.
int lock(const std::string& name, bool directory) {
  const int fd = open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (directory ? O_DIRECTORY : 0));
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

void remove_left_work(const std::string& path) {
  const fs::path target = target_of(path);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string prefix = ".";  // appended piecewise, as in template_beside
  prefix += target.filename().string();
  prefix += kMark;
  std::vector<std::string> work, store_files;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const auto rest = rest_after_random(name, prefix);
    if (!rest) continue;
    if (rest->empty()) {
      work.push_back(it->path().string());
    } else if (std::find(kStoreSuffixes.begin(), kStoreSuffixes.end(), *rest) != kStoreSuffixes.end()) {
      store_files.push_back(it->path().string());
    }
  }
  for (const auto& w : work) remove_if_left(w);
  for (const auto& f : store_files) {
    const std::string owner = f.substr(0, f.rfind('-'));
    bool directory = false;
    std::error_code ignored;
    if (!fs::exists(fs::symlink_status(owner, ignored)) && old_enough_and_ours(f, directory) && !directory)
      fs::remove(f, ignored);
  }
}

WorkBeside WorkBeside::file(const std::string& path, int& fd) {
  remove_left_work(path);
  std::string name = template_beside(path);
  fd = mkostemp(name.data(), O_CLOEXEC);  // O_CREAT|O_EXCL with a random suffix
  if (fd < 0) throw Error(path + ": cannot create a temporary file beside it: " + std::strerror(errno));
  return WorkBeside(name, lock(name, false));
}

WorkBeside WorkBeside::directory(const std::string& path) {
  remove_left_work(path);
  std::string name = template_beside(path);
  if (!mkdtemp(name.data()))
    throw Error(path + ": cannot create a directory beside it: " + std::strerror(errno));
  return WorkBeside(name, lock(name, true));
}

WorkBeside::WorkBeside(WorkBeside&& other) noexcept
    : name_(std::move(other.name_)), lock_fd_(std::exchange(other.lock_fd_, -1)) {}

WorkBeside::~WorkBeside() {
  if (lock_fd_ >= 0) close(lock_fd_);
}

}  // namespace faultline::common
