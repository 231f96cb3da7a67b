#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>

#include "common/error.hpp"

namespace faultline::common {

namespace {

namespace fs = std::filesystem;

// What write_file_atomically gathers of small pieces before it writes: a few pages, few system calls.
constexpr size_t kGatheredBytes = 1 << 16;
// How many symbolic links a path may pass through, as Linux allows (ELOOP beyond).
constexpr int kMostLinkHops = 40;

// "dir/.name.XXXXXX": hidden beside the target, so the rename stays on one file system.
std::string temp_template(const std::string& path) {
  fs::path target(path);
  if (target.filename().empty()) target = target.parent_path();  // "models/" names the directory "models"
  std::string name = ".";  // appended piecewise: "." + string + … trips GCC 12's -Wrestrict at -O3
  name += target.filename().string();
  name += ".XXXXXX";
  return (target.parent_path() / name).string();
}

std::string reason() { return std::strerror(errno); }

void fsync_directory_of(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  int fd = open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0)
    return;  // the rename is done; durability of the entry is best effort where dirs cannot be opened
  fsync(fd);
  close(fd);
}

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

// What `path` names once symbolic links are followed, hop by hop (a relative link from its own directory):
// the link stays a link, and the file it points to is the one replaced.
std::string followed_links(const std::string& path) {
  fs::path p(path);
  std::error_code error;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(p, error)); ++hops) {
    if (hops == kMostLinkHops) throw Error(path + ": too many levels of symbolic links");
    const fs::path to = fs::read_symlink(p, error);
    if (error) throw Error(path + ": cannot read the symbolic link: " + error.message());
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p.string();
}

// A device, FIFO or socket is written into, as a shell's redirection would: renaming a file over it would
// put a plain file in its place (over /dev/null, for every program on the machine).
bool is_special_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
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

void write_file_atomically(const std::string& path, const std::function<void(const PieceWriter&)>& produce) {
  const std::string target = followed_links(path);
  if (is_special_file(target)) return write_into(path, target, produce);
  std::string temp = temp_template(target);
  int fd = mkostemp(temp.data(), O_CLOEXEC);  // O_CREAT|O_EXCL with a random suffix
  if (fd < 0) throw Error(path + ": cannot create a temporary file beside it: " + reason());
  try {
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) throw Error(path + ": cannot set the file mode: " + reason());
    write_pieces(fd, path, produce);
    if (fsync(fd) != 0) throw Error(path + ": cannot write the file: " + reason());
    int closed = close(fd);
    fd = -1;
    if (closed != 0) throw Error(path + ": cannot write the file: " + reason());
    if (std::rename(temp.c_str(), target.c_str()) != 0) {
      throw Error(path + ": cannot replace the file: " + reason());
    }
  } catch (...) {
    if (fd >= 0) close(fd);
    unlink(temp.c_str());
    throw;
  }
  fsync_directory_of(target);
}

void replace_directory_atomically(const std::string& path,
                                  const std::function<void(const std::string&)>& fill) {
  std::string staging = temp_template(path);
  if (!mkdtemp(staging.data())) throw Error(path + ": cannot create a directory beside it: " + reason());
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
