// RAII wrapper over one SQLite connection: prepared statements with bound parameters only, and
// transactions that roll back when the work inside them throws.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace faultline::datasets {

// How a store is opened: whether a missing file may become a new store, and how long to wait for
// another process that holds the write lock.
struct OpenOptions {
  bool create_if_missing = true;
  int busy_timeout_ms = 5000;
};

class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, int busy_timeout_ms);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&& other) noexcept;

  Statement& bind(int index, const std::string& value);
  Statement& bind(int index, const char* value) { return bind(index, std::string(value)); }
  Statement& bind(int index, int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, const std::optional<std::string>& value);
  Statement& bind(int index, const std::optional<int64_t>& value);
  Statement& bind(int index, const std::optional<double>& value);
  Statement& bind_null(int index);

  // Binds every argument in order, starting at parameter 1.
  template <typename... Args>
  Statement& bind_all(const Args&... args) {
    int index = 1;
    (bind(index++, args), ...);
    return *this;
  }

  bool step();  // true while a row is available
  void run();   // step through to completion
  void reset();

  std::string text(int column) const;
  int64_t integer(int column) const;
  double real(int column) const;
  std::optional<double> optional_real(int column) const;  // nullopt for NULL
  bool is_null(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_;
  std::string sql_;
  int busy_timeout_ms_;
};

class Database {
 public:
  // Opens (creating if needed and allowed), turns on WAL and foreign keys, and applies pending
  // migrations. Without create_if_missing a missing file is "no store at PATH" and nothing is created.
  // A store the process may not write is opened read-only: reads work, writes fail.
  explicit Database(const std::string& path, const OpenOptions& options = {});
  // Opens and migrates only up to `version` (tests use it to build an older schema).
  Database(const std::string& path, int version);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Statement prepare(const std::string& sql) { return Statement(db_, sql, options_.busy_timeout_ms); }
  void exec(const std::string& sql);
  // Temporary files in memory rather than on disk, for a command that writes many rows: each write to a
  // table with triggers (migration 13's) keeps a statement journal, a few pages, which on disk costs a
  // file's system calls per statement. Not for a reader of large sorted results, whose temporary B-trees
  // would then take memory.
  void keep_temporary_files_in_memory();
  int user_version();
  int64_t last_insert_id() const;
  const std::string& path() const { return path_; }

  // Runs `work` inside BEGIN IMMEDIATE … COMMIT; any exception rolls everything back and propagates. Inside
  // a transaction already open (a write one: a read transaction cannot be made one that writes here), `work`
  // joins it, so that steps written as transactions of their own commit together or not at all.
  void transaction(const std::function<void()>& work);
  // Runs `work` inside one read transaction (BEGIN DEFERRED … COMMIT), so that all its reads see one state
  // of the store while other processes write (WAL); inside a transaction already open, within that one.
  void read_consistently(const std::function<void()>& work);

 private:
  void connect(const std::string& name, int flags);
  void open(int target_version);
  // Refuses a file that is not an SQLite database, or a damaged one, with its path.
  void refuse_non_database();
  void prepare_schema(int target_version, bool read_only);
  void migrate(int target_version);
  // `work` between `begin` and COMMIT; any exception rolls everything back and propagates.
  void run_in_transaction(const char* begin, const std::function<void()>& work);
  sqlite3* db_ = nullptr;
  std::string path_;
  OpenOptions options_;
};

}  // namespace faultline::datasets
