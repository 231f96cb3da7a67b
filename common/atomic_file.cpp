#include "common/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <set>
#include <string_view>

#include "common/error.hpp"
#include "common/work_beside.hpp"

namespace faultline::common {

namespace {

namespace fs = std::filesystem;

// What write_file_atomically gathers of small pieces before it writes: a few pages, few system calls.
constexpr size_t kGatheredBytes = 1 << 16;
// How many symbolic links a path may pass through, as Linux allows (ELOOP beyond).
constexpr int kMostLinkHops = 40;

std::string reason() { return std::strerror(errno); }

// The descriptors open when the process started (remember_inherited_descriptors), and 1 and 2 until it is
// called: those a shell can hand over by name.
std::set<int>& inherited_descriptors() {
  static std::set<int> open{1, 2};
  return open;
}

void fsync_directory(const fs::path& directory) {
  int fd = open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;  // the rename is done; durability of the entry is best effort where dirs cannot be opened
  fsync(fd);
  close(fd);
}

void fsync_directory_of(const std::string& path) { fsync_directory(fs::path(path).parent_path()); }

// Checks each write: a full disk shows up as a short write or ENOSPC/EFBIG, never as silence.
void write_all(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    ssize_t n = write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(path + ": cannot write the file: " + (n < 0 ? reason() : "no space written"));
    content.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace

bool names_standard_output(const std::string& path) {
  struct stat out = {};
  struct stat named = {};
  if (fstat(1, &out) != 0 || stat(path.c_str(), &named) != 0) return false;
  // A device other than a terminal (/dev/null) mixes nothing: what is written there is not read back.
  if (S_ISCHR(out.st_mode) && !isatty(1)) return false;
  return out.st_dev == named.st_dev && out.st_ino == named.st_ino;
}

void remember_inherited_descriptors() {
  std::set<int>& open = inherited_descriptors();
  open.clear();
  // /proc lists the open descriptors, a handful, where asking each possible number costs one system call
  // per number up to the limit (20,000 here) at every start. The listing's own descriptor is not one.
  if (DIR* listing = opendir("/proc/self/fd")) {
    const int own = dirfd(listing);
    while (const dirent* entry = readdir(listing)) {
      int fd = -1;
      const char* name = entry->d_name;
      const auto [end, error] = std::from_chars(name, name + std::strlen(name), fd);
      if (error == std::errc() && *end == '\0' && fd != own) open.insert(fd);
    }
    closedir(listing);
    return;
  }
  const int most = static_cast<int>(std::min<long>(sysconf(_SC_OPEN_MAX), 1 << 16));
  for (int fd = 0; fd < most; ++fd) {
    if (fcntl(fd, F_GETFD) != -1) open.insert(fd);
  }
}

void write_file_atomically(const std::string& path, std::string_view content) {
  write_file_atomically(path, [&](const PieceWriter& write) { write(content); });
}

namespace {

// Hands `produce`'s pieces to `fd`: many small ones cost one write per kGatheredBytes, not one each; a large
// one goes out as it is, never copied. A failed write is remembered: a producer that caught it must not get
// a cut file.
void write_pieces(int fd, const std::string& path, const std::function<void(const PieceWriter&)>& produce) {
  std::string buffer;
  std::exception_ptr failed;
  produce([&](std::string_view piece) {
    if (failed) std::rethrow_exception(failed);
    try {
      if (buffer.size() + piece.size() < kGatheredBytes) {
        buffer += piece;
        return;
      }
      write_all(fd, buffer, path);
      buffer.clear();
      if (piece.size() >= kGatheredBytes) {
        write_all(fd, piece, path);
      } else {
        buffer += piece;
      }
    } catch (...) {
      failed = std::current_exception();
      throw;
    }
  });
  if (failed) std::rethrow_exception(failed);
  write_all(fd, buffer, path);
}

// Whether `path` is an SQLite database or write-ahead log, by its first bytes ("SQLite format 3" and a NUL;
// the log's magic 0x377f0682 or 0x377f0683): an output written over the store (`export --out` naming the
// --db) would replace every label and decision in it.
bool holds_a_database(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  unsigned char head[16] = {};
  const size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  static const unsigned char kDatabase[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                              'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
  if (n == sizeof head && std::memcmp(head, kDatabase, sizeof head) == 0) return true;
  return n >= 4 && head[0] == 0x37 && head[1] == 0x7f && head[2] == 0x06 &&
         (head[3] == 0x82 || head[3] == 0x83);
}

// Whether `path` names a file SQLite keeps beside a database: NAME-wal, NAME-shm or NAME-journal where NAME
// holds one. Such a file may be empty or absent while the store is open, and SQLite removes or rewrites it
// when the store closes: an output written there was lost, or taken for the store's log.
bool beside_a_database(const std::string& path) {
  for (std::string_view suffix : {"-wal", "-shm", "-journal"}) {
    if (path.size() > suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        holds_a_database(path.substr(0, path.size() - suffix.size())))
      return true;
  }
  return false;
}

// The descriptor a path names directly: /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N. Output
// there goes into that very descriptor, after what the process wrote to it already (opening the path anew
// would start at the file's beginning, or replace the file a shell redirected into). Only one the process
// was handed: any other is one it opened itself (the store's, say), or a number a closed one left free.
std::optional<int> descriptor_named(const std::string& path) {
  std::optional<int> fd;
  if (path == "/dev/stdout") fd = 1;
  if (path == "/dev/stderr") fd = 2;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.rfind(prefix, 0) != 0) continue;
    int n = -1;
    const auto [end, error] = std::from_chars(path.c_str() + prefix.size(), path.c_str() + path.size(), n);
    if (error == std::errc() && *end == '\0' && n >= 0) fd = n;
  }
  if (fd && !inherited_descriptors().count(*fd))
    throw Error(path + ": descriptor " + std::to_string(*fd) + " was not open when faultline started");
  return fd;
}

// Where output for `path` goes, found as the kernel resolves it, so that its own checks on links apply
// (fs.protected_symlinks): the file to replace, links followed (the links stay), or, when `special`, a
// device, FIFO or socket to write into. A link that points nowhere yet names the file to make.
struct Destination {
  std::string target;
  bool special = false;
};

Destination destination_of(const std::string& path) {
  const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ELOOP) throw Error(path + ": too many levels of symbolic links");
    if (errno != ENOENT) throw Error(path + ": cannot open it: " + reason());
    // Nothing there: a dangling link is followed by hand to the file it would name.
    fs::path p(path);
    std::error_code error;
    for (int hops = 0; fs::is_symlink(fs::symlink_status(p, error)); ++hops) {
      if (hops == kMostLinkHops) throw Error(path + ": too many levels of symbolic links");
      const fs::path to = fs::read_symlink(p, error);
      if (error) throw Error(path + ": cannot read the symbolic link: " + error.message());
      p = to.is_absolute() ? to : p.parent_path() / to;
    }
    return {p.string()};
  }
  struct stat st {};
  const bool found = fstat(fd, &st) == 0;
  std::string target;
  if (found && S_ISREG(st.st_mode)) {
    // The file the kernel found, by the name /proc gives its descriptor, else by realpath.
    char name[PATH_MAX];
    const ssize_t n = readlink(("/proc/self/fd/" + std::to_string(fd)).c_str(), name, sizeof name);
    if (n > 0 && static_cast<size_t>(n) < sizeof name) {
      target.assign(name, static_cast<size_t>(n));
    } else if (char* real = realpath(path.c_str(), nullptr)) {
      target = real;
      std::free(real);
    }
  }
  close(fd);
  if (!found) throw Error(path + ": cannot open it: " + reason());
  if (S_ISDIR(st.st_mode)) throw Error(path + ": is a directory, not a file");
  if (!S_ISREG(st.st_mode)) return {path, true};
  // Never the path itself when it is a link: renaming over it would put a plain file in the link's place.
  if (target.empty()) throw Error(path + ": cannot find the file it names");
  return {target, false};
}

// Writes into `fd` (not closed here), every write checked.
void write_to_descriptor(const std::string& path, int fd,
                         const std::function<void(const PieceWriter&)>& produce) {
  std::fflush(nullptr);  // what the process wrote through stdio comes first
  write_pieces(fd, path, produce);
}

void write_into(const std::string& path, const std::string& target,
                const std::function<void(const PieceWriter&)>& produce) {
  const int fd = open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path + ": cannot open it for writing: " + reason());
  try {
    write_pieces(fd, path, produce);
  } catch (...) {
    close(fd);
    throw;
  }
  if (close(fd) != 0) throw Error(path + ": cannot write the file: " + reason());
}

}  // namespace

struct StagedFiles::Staged {
  std::string path;    // as the caller named it, for messages
  std::string target;  // the file it replaces, links followed
  WorkBeside work;     // the temporary file, written whole and synced
};

namespace {

// Writes `produce`'s content to a temporary file beside the file `path` names, synced and closed; nothing is
// replaced yet. A descriptor, device or FIFO is written into at once instead (nothing to stage: none).
std::optional<StagedFiles::Staged> stage(const std::string& path,
                                         const std::function<void(const PieceWriter&)>& produce) {
  if (const std::optional<int> fd = descriptor_named(path)) {
    write_to_descriptor(path, *fd, produce);
    return std::nullopt;
  }
  const auto [target, special] = destination_of(path);
  if (!special && (holds_a_database(target) || beside_a_database(target)))
    throw Error(path +
                ": is an SQLite database or its log (a store?); no output is written over one: name "
                "another file");
  // A device, FIFO or socket is written into, as a shell's redirection would: renaming a file over it would
  // put a plain file in its place (over /dev/null, for every program on the machine).
  if (special) {
    write_into(path, path, produce);
    return std::nullopt;
  }
  int fd = -1;
  WorkBeside work = WorkBeside::file(target, 0666, fd);
  try {
    write_pieces(fd, path, produce);
    if (fsync(fd) != 0) throw Error(path + ": cannot write the file: " + reason());
    int closed = close(fd);
    fd = -1;
    if (closed != 0) throw Error(path + ": cannot write the file: " + reason());
  } catch (...) {
    if (fd >= 0) close(fd);
    unlink(work.name().c_str());
    throw;
  }
  return StagedFiles::Staged{path, target, std::move(work)};
}

void rename_into_place(const StagedFiles::Staged& f) {
  if (std::rename(f.work.name().c_str(), f.target.c_str()) != 0)
    throw Error(f.path + ": cannot replace the file: " + reason());
}

void put_in_place(const StagedFiles::Staged& f) {
  rename_into_place(f);
  fsync_directory_of(f.target);
}

}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(const PieceWriter&)>& produce) {
  std::optional<StagedFiles::Staged> staged = stage(path, produce);
  if (!staged) return;
  try {
    put_in_place(*staged);
  } catch (...) {
    unlink(staged->work.name().c_str());
    throw;
  }
}

StagedFiles::StagedFiles() = default;

StagedFiles::~StagedFiles() {
  for (const auto& f : staged_) unlink(f.work.name().c_str());  // those put in place are no longer there
}

void StagedFiles::add(const std::string& path, std::string_view content) {
  add(path, [&](const PieceWriter& write) { write(content); });
}

void StagedFiles::add(const std::string& path, const std::function<void(const PieceWriter&)>& produce) {
  if (auto staged = stage(path, produce)) staged_.push_back(std::move(*staged));
}

void StagedFiles::remove_on_commit(const std::string& path) { removals_.push_back(path); }

void StagedFiles::commit() {
  // The renames and removals one right after the other, the directories synced once at the end: a sync
  // after each rename drew the span in which a kill leaves files of two runs out to milliseconds.
  // What cannot be removed is found before anything is replaced, so it fails with the old files whole.
  for (const auto& path : removals_) {
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw Error(path + ": is a directory, where a file of an earlier run is removed: nothing was replaced");
  }
  std::set<fs::path> directories;
  for (const auto& f : staged_) {
    rename_into_place(f);
    directories.insert(fs::path(f.target).parent_path());
  }
  for (const auto& path : removals_) {
    if (unlink(path.c_str()) == 0)
      directories.insert(fs::path(path).parent_path());
    else if (errno != ENOENT)
      throw Error(path + ": cannot remove the file of an earlier run: " + reason());
  }
  staged_.clear();
  removals_.clear();
  for (const auto& directory : directories) fsync_directory(directory);
}

void require_directory_or_nothing(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status) && !fs::is_directory(status))
    throw Error(path +
                ": is a file, not a directory; a directory is never put in place of a file: name "
                "another");
}

void replace_directory_atomically(const std::string& path,
                                  const std::function<void(const std::string&)>& fill) {
  require_directory_or_nothing(path);
  const WorkBeside work = WorkBeside::directory(path);
  const std::string& staging = work.name();
  std::error_code ignored;
  try {
    fill(staging);
    if (!fs::exists(path)) {
      if (std::rename(staging.c_str(), path.c_str()) != 0) {
        throw Error(path + ": cannot move the new directory in place: " + reason());
      }
    } else {
      // Exchange both names in one step, so `path` is never missing; the old version then sits at the
      // staging name and is removed.
      if (renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) != 0) {
        throw Error(path + ": cannot swap in the new directory: " + reason());
      }
      fs::remove_all(staging, ignored);
    }
  } catch (...) {
    fs::remove_all(staging, ignored);
    throw;
  }
  fsync_directory_of(path);
}

}  // namespace faultline::common
