#include "datasets/store/new_store.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/error.hpp"

namespace faultline::datasets {

void work_on_store_or_make_one(const std::string& path, const OpenOptions& options,
                               const std::function<void(Database&)>& work) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::symlink_status(path, error).type() != fs::file_type::not_found) {
    Database db(path, options);
    work(db);
    return;
  }
  const fs::path target(path);
  std::string made = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(made.data());
  if (fd < 0) throw Error(path + ": cannot make a new store beside it: " + std::strerror(errno));
  // The mode SQLite would give a store it creates.
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  close(fd);
  auto remove_made = [&] {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(made + suffix, error);
  };
  try {
    {
      OpenOptions creating = options;
      creating.create_if_missing = true;
      Database db(made, creating);
      work(db);
      // Back to a rollback journal, which folds the write-ahead log into the file and removes it: the
      // store is then one file, whole, that a link can put in place. (Every open turns WAL on again.)
      db.exec("PRAGMA journal_mode=DELETE");
    }
    if (link(made.c_str(), path.c_str()) != 0) {
      const int reason = errno;
      throw Error(reason == EEXIST ? path +
                                         ": another faultline made this store meanwhile; nothing was written "
                                         "to it (run the command again)"
                                   : path + ": cannot put the new store in place: " + std::strerror(reason));
    }
  } catch (...) {
    remove_made();
    throw;
  }
  remove_made();  // the store lives on at `path`
}

}  // namespace faultline::datasets
