// The hidden work beside an output: a new version of a file, a model directory or a store is made under
// ".NAME.faultline-XXXXXX" beside NAME and put in place once complete. The process making one holds a lock
// on it (flock) for as long as it lives, so a later faultline can tell work a killed process left behind
// from work still going on, and remove the first kind before it makes its own.
#pragma once

#include <sys/types.h>

#include <array>
#include <string>
#include <string_view>
#include <utility>

namespace faultline::common {

// The files SQLite keeps beside a database of that name while it writes: its log, the log's shared memory
// and its rollback journal.
constexpr std::array<std::string_view, 3> kDatabaseFileSuffixes = {"-wal", "-shm", "-journal"};

class WorkBeside {
 public:
  // Removes the work left beside `path` (remove_left_work), then makes a new hidden file beside it, with
  // `mode` less the umask (the mode a file created at `path` would get), and locks it; `fd` receives a
  // descriptor of the file open for writing, which the caller closes (the lock stays).
  static WorkBeside file(const std::string& path, mode_t mode, int& fd);
  // The same with a new hidden directory (mode 0700).
  static WorkBeside directory(const std::string& path);

  WorkBeside(const WorkBeside&) = delete;
  WorkBeside& operator=(const WorkBeside&) = delete;
  // The lock goes with the work.
  WorkBeside(WorkBeside&& other) noexcept : name_(std::move(other.name_)), lock_fd_(other.lock_fd_) {
    other.lock_fd_ = -1;
  }
  // Releases the lock; removes nothing (whoever made the work puts it in place or removes it). A store's
  // SQLite connection must be closed first: closing a descriptor of a file drops every POSIX lock the
  // process holds on it, SQLite's own included.
  ~WorkBeside();

  const std::string& name() const { return name_; }

 private:
  WorkBeside(std::string name, int lock_fd) : name_(std::move(name)), lock_fd_(lock_fd) {}
  std::string name_;
  int lock_fd_;  // -1 on a file system without flock: there no work is ever taken for left
};

// Removes every hidden work entry beside `path` ("DIR/.NAME.faultline-" and six letters or digits, a file or
// a directory) that the user running faultline owns, that was last modified a minute ago or more and that no
// process holds, and also such a name followed by one of kDatabaseFileSuffixes once no entry of that name is
// left. Anything else, a symbolic link included, stays. Failures are ignored: this is tidying, and the
// command goes on either way.
void remove_left_work(const std::string& path);

}  // namespace faultline::common
