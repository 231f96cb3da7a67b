#include "datasets/store/new_store.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "common/work_beside.hpp"

namespace faultline::datasets {

namespace {

// `text` with every `from` written as `to`.
std::string named_as(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

// `made` linked in at `path`, or renamed there where the file system has no hard links; neither replaces
// a file another process put at `path` meanwhile.
void put_in_place(const std::string& made, const std::string& path) {
  int reason = link(made.c_str(), path.c_str()) == 0 ? 0 : errno;
  if (reason == EPERM || reason == EOPNOTSUPP || reason == ENOSYS) {
    reason = renameat2(AT_FDCWD, made.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0 ? 0 : errno;
    if (reason == EINVAL)
      throw Error(path +
                  ": cannot put the new store in place: the file system has neither hard links nor a "
                  "rename that keeps what is there");
  }
  if (reason == EEXIST)
    throw Error(path +
                ": another faultline made this store meanwhile; nothing was written to it (run the "
                "command again)");
  if (reason != 0) throw Error(path + ": cannot put the new store in place: " + std::strerror(reason));
}

}  // namespace

void work_on_store_or_make_one(const std::string& path, const OpenOptions& options,
                               const std::function<void(Database&)>& work) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::symlink_status(path, error).type() != fs::file_type::not_found) {
    common::remove_left_work(path);  // what an import killed while making this store left beside it
    Database db(path, options);
    work(db);
    return;
  }
  int fd = -1;
  // Declared before the connection, so destroyed after it: see ~WorkBeside.
  // 0644: the mode SQLite gives a store it creates.
  const common::WorkBeside beside = common::WorkBeside::file(path, 0644, fd);
  const std::string& made = beside.name();
  close(fd);
  auto remove_made = [&] {
    fs::remove(made, error);
    for (const std::string_view suffix : common::kDatabaseFileSuffixes)
      fs::remove(made + std::string(suffix), error);
  };
  try {
    // SQLite names its journal after the hidden store, and could not open it under a name too long for a
    // file: said here in the user's terms, not as SQLite's "unable to open database file".
    const size_t longest = fs::path(made).filename().string().size() + std::string_view("-journal").size();
    if (longest > NAME_MAX) {
      throw Error(path +
                  ": a name too long for a new store: its journal, made beside it under a hidden name, " +
                  "would need a name of " + std::to_string(longest) + " bytes, over the " +
                  std::to_string(NAME_MAX) + " a file name may have");
    }
    {
      OpenOptions creating = options;
      creating.create_if_missing = true;
      Database db(made, creating);
      try {
        work(db);
      } catch (const Error& e) {
        throw Error(named_as(e.what(), made, path));  // the user knows the store by its own name
      }
      // Back to a rollback journal, which folds the write-ahead log into the file and removes it: the
      // store is then one file, whole, that a link can put in place. (Every open turns WAL on again.)
      Statement journal = db.prepare("PRAGMA journal_mode=DELETE");
      if (!journal.step() || journal.text(0) != "delete")
        throw Error(path + ": the new store could not be made one file (its journal stays a log)");
    }
    if (fs::exists(made + "-wal", error)) throw Error(path + ": the new store's log was not folded into it");
    put_in_place(made, path);
  } catch (...) {
    remove_made();
    throw;
  }
  remove_made();  // the store lives on at `path`
}

}  // namespace faultline::datasets
