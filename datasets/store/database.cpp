#include "datasets/store/database.hpp"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "common/error.hpp"
#include "datasets/store/migrations.hpp"

namespace faultline::datasets {

namespace {

constexpr const char* kBusyText = "the store is busy (another faultline is writing)";

// Failures of the store as a whole rather than of one statement: their message needs no SQL.
bool is_store_failure(int rc) {
  const int primary = rc & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_READONLY || primary == SQLITE_CORRUPT ||
         primary == SQLITE_FULL || primary == SQLITE_IOERR;
}

// SQLite's texts for a locked, write-protected, damaged or full store say neither who holds it nor what to
// do; the statement that met it says nothing a user can act on.
std::string failure_text(sqlite3* db, int rc, int busy_timeout_ms) {
  switch (rc & 0xff) {
    case SQLITE_BUSY: {
      char waited[32];
      std::snprintf(waited, sizeof waited, "%g", busy_timeout_ms / 1000.0);
      return std::string(kBusyText) + "; waited " + waited +
             " s (raise --busy-timeout or FAULTLINE_BUSY_TIMEOUT)";
    }
    case SQLITE_CORRUPT:
      return std::string("the store is damaged (SQLite: ") + sqlite3_errmsg(db) + "); restore it from a copy";
    case SQLITE_FULL:
    case SQLITE_IOERR:
      // A file-size limit (RLIMIT_FSIZE) reaches SQLite as an I/O error, a full file system as either.
      return std::string("cannot write the store or the files SQLite keeps beside it: the disk is full, a "
                         "file-size limit was reached or the disk failed (SQLite: ") +
             sqlite3_errmsg(db) + "); nothing of the failed step is kept: free space and run the command again";
    case SQLITE_READONLY:
      // SQLite makes the -wal and -shm files with the store's permissions, so a store once read while it
      // was write-protected keeps write-protected ones after the store itself is writable again.
      return "the store is read-only here (no write permission on it, on its -wal or -shm file beside it, "
             "or on its folder); this command needs to write it";
    default:
      return sqlite3_errmsg(db);
  }
}

// "database PATH: " for an error of the store behind `db` (an in-memory one has no path).
std::string store_prefix(sqlite3* db) {
  const char* file = sqlite3_db_filename(db, "main");
  return file && *file ? std::string("database ") + file + ": " : std::string("database: ");
}

// A file name as the path of a file: URI, where ?, # and % would otherwise end or escape it.
std::string uri_path(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '?' || c == '#' || c == '%') {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", static_cast<unsigned char>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out;
}

// Whether a failed look at a path says only that nothing is there (rather than a link loop, or a directory on
// the way that may not be searched).
bool nothing_there(const std::error_code& error) {
  return error == std::errc::no_such_file_or_directory || error == std::errc::not_a_directory;
}

// SQLite would make a store where a symbolic link to nothing points, past the care a new store gets
// (made whole beside its path, then put in place), and at a name the user may not have meant.
void refuse_dangling_link(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_symlink(std::filesystem::symlink_status(path, error))) return;
  if (std::filesystem::exists(std::filesystem::status(path, error))) return;
  if (!nothing_there(error))
    throw Error(path + ": a symbolic link that cannot be followed: " + error.message());
  const auto to = std::filesystem::read_symlink(path, error);
  throw Error(
      path + ": a symbolic link to " + (error ? std::string("nothing") : to.string()) +
      ", where there is no file; give the place a store should be made at as --db, or remove the link");
}

}  // namespace

Statement::Statement(sqlite3* db, const std::string& sql, int busy_timeout_ms)
    : db_(db), stmt_(nullptr), sql_(sql), busy_timeout_ms_(busy_timeout_ms) {
  if (const int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt_, nullptr); rc != SQLITE_OK) {
    // Preparing reads the schema, and the first statement of a connection makes the -shm file beside the
    // store: a full disk, a lock or damage can show here first.
    if (is_store_failure(rc)) throw Error(store_prefix(db_) + failure_text(db_, rc, busy_timeout_ms_));
    throw Error(store_prefix(db_) + "cannot prepare statement: " + sqlite3_errmsg(db_) + " in: " + sql);
  }
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_),
      stmt_(other.stmt_),
      sql_(std::move(other.sql_)),
      busy_timeout_ms_(other.busy_timeout_ms_) {
  other.stmt_ = nullptr;
}

Statement& Statement::bind(int index, const std::string& value) {
  sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind(int index, int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

Statement& Statement::bind(int index, double value) {
  sqlite3_bind_double(stmt_, index, value);
  return *this;
}

Statement& Statement::bind(int index, const std::optional<std::string>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind(int index, const std::optional<int64_t>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind(int index, const std::optional<double>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind_null(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  std::string text = failure_text(db_, rc, busy_timeout_ms_);
  throw Error(store_prefix(db_) + (is_store_failure(rc) ? text : text + " in: " + sql_));
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Statement::text(int column) const {
  const unsigned char* p = sqlite3_column_text(stmt_, column);
  if (!p) return {};
  return std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(stmt_, column));
}

int64_t Statement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }
std::optional<double> Statement::optional_real(int column) const {
  if (is_null(column)) return std::nullopt;
  return real(column);
}

bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

Database::Database(const std::string& path, const OpenOptions& options) : path_(path), options_(options) {
  open(latest_schema_version());
}

Database::Database(const std::string& path, int version) : path_(path) { open(version); }

Database::~Database() {
  if (db_) sqlite3_close(db_);
}

void Database::connect(const std::string& name, int flags) {
  if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    if (db_) sqlite3_close(db_);
    db_ = nullptr;
    throw Error("database " + path_ + ": cannot open: " + message);
  }
  sqlite3_busy_timeout(db_, options_.busy_timeout_ms);
}

void Database::open(int target_version) {
  std::error_code error;
  if (std::filesystem::is_directory(path_, error))
    throw Error("database " + path_ + ": a directory, not a store file; check --db or FAULTLINE_DB");
  if (!options_.create_if_missing && !std::filesystem::is_regular_file(path_, error)) {
    if (error && !nothing_there(error)) throw Error("no store at " + path_ + ": " + error.message());
    throw Error("no store at " + path_ +
                " (check --db or FAULTLINE_DB; 'faultline import' or 'mine' create one)");
  }
  if (options_.create_if_missing) refuse_dangling_link(path_);
  connect(path_, SQLITE_OPEN_READWRITE | (options_.create_if_missing ? SQLITE_OPEN_CREATE : 0));
  // SQLite falls back to read-only when the file is write-protected; such a store can still be read,
  // so nothing below may write to it.
  bool read_only = sqlite3_db_readonly(db_, "main") == 1;
  if (read_only && sqlite3_exec(db_, "PRAGMA user_version", nullptr, nullptr, nullptr) != SQLITE_OK) {
    // A WAL store needs its -shm file to be read; where it cannot be created (a write-protected
    // directory), the store is read as immutable: nobody can change a file that nobody may write.
    sqlite3_close(db_);
    db_ = nullptr;
    connect("file:" + uri_path(path_) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
  }
  exec("PRAGMA foreign_keys=ON");
  // While another process turns a new store to WAL mode or migrates it, SQLite can answer SQLITE_BUSY at
  // once instead of calling the busy handler (it cannot wait on a file that is changing its journal mode),
  // so these steps are retried until the busy timeout has passed.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.busy_timeout_ms);
  for (;;) {
    try {
      prepare_schema(target_version, read_only);
      return;
    } catch (const Error& e) {
      bool busy = std::string(e.what()).find(kBusyText) != std::string::npos;
      if (!busy || std::chrono::steady_clock::now() >= deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

void Database::prepare_schema(int target_version, bool read_only) {
  // faultline's first migration makes the table repositories and sets user_version, in one transaction.
  // A database without both is not a store: another program's is not written into (nor its journal mode
  // changed), and a verb that only reads refuses an empty one (a file that merely exists). The figures come
  // from one statement, one snapshot: a store another faultline is making is seen before or after.
  {
    refuse_non_database();
    Statement s = prepare(
        "SELECT (SELECT user_version FROM pragma_user_version), (SELECT COUNT(*) FROM sqlite_master), "
        "(SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'repositories')");
    s.step();
    // No faultline writes a version under 0; the migrations are indexed by it.
    if (s.integer(0) < 0)
      throw Error("database " + path_ + ": not a faultline store (schema version " +
                  std::to_string(s.integer(0)) + ", which no faultline writes); check --db");
    const bool is_new = s.integer(0) == 0 && s.integer(1) == 0;
    if (!is_new && s.integer(1) == 0)  // a version set, yet nothing made: no faultline leaves this
      throw Error("database " + path_ + ": not a faultline store (schema version " +
                  std::to_string(s.integer(0)) + " but no tables); check --db");
    if (!is_new && (s.integer(0) == 0 || s.integer(2) == 0))
      throw Error("database " + path_ +
                  ": not a faultline store (it holds another program's tables); check --db");
    if (is_new && !options_.create_if_missing)
      throw Error("database " + path_ +
                  ": not a faultline store (an empty database); check --db, or make one with 'faultline "
                  "import' or 'mine'");
  }
  if (!read_only) exec("PRAGMA journal_mode=WAL");
  int current = user_version();
  if (current > latest_schema_version()) {
    throw Error("database " + path_ + ": schema version " + std::to_string(current) +
                " is newer than this faultline understands (" + std::to_string(latest_schema_version()) +
                "); use a newer faultline");
  }
  if (current >= target_version) return;
  if (read_only) {
    throw Error("database " + path_ + ": schema version " + std::to_string(current) +
                " needs an upgrade, but the store is read-only here; open it once with write permission");
  }
  migrate(target_version);
}

void Database::refuse_non_database() {
  // SQLite reads the file's header only at the first statement, and its own words for a file that is not
  // a database name neither the file nor what to do.
  const int rc = sqlite3_exec(db_, "SELECT COUNT(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  if (rc == SQLITE_NOTADB)
    throw Error("database " + path_ + ": not a faultline store (not an SQLite database); check --db");
  if ((rc & 0xff) == SQLITE_CORRUPT)
    throw Error("database " + path_ + ": " + failure_text(db_, rc, options_.busy_timeout_ms));
}

void Database::migrate(int target_version) {
  // All pending steps in one exclusive transaction: a second process opening the same new store waits
  // for it and then finds the schema current, instead of creating the tables a second time.
  run_in_transaction("BEGIN EXCLUSIVE", [&] {
    const auto& steps = migrations();
    for (int v = user_version(); v < target_version; ++v) exec(steps[v]);
    exec("PRAGMA user_version=" + std::to_string(target_version));
  });
}

void Database::exec(const std::string& sql) {
  char* message = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string text =
        is_store_failure(rc) || !message ? failure_text(db_, rc, options_.busy_timeout_ms) : message;
    sqlite3_free(message);
    throw Error("database " + path_ + ": " + text);
  }
}

void Database::keep_temporary_files_in_memory() { exec("PRAGMA temp_store=MEMORY"); }

int Database::user_version() {
  Statement s = prepare("PRAGMA user_version");
  s.step();
  return static_cast<int>(s.integer(0));
}

int64_t Database::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

void Database::run_in_transaction(const char* begin, const std::function<void()>& work) {
  exec(begin);
  try {
    work();
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Database::transaction(const std::function<void()>& work) {
  // Within a transaction already open, the work is part of it: it commits or rolls back with the whole.
  if (!sqlite3_get_autocommit(db_)) {
    work();
    return;
  }
  run_in_transaction("BEGIN IMMEDIATE", work);
}

void Database::read_consistently(const std::function<void()>& work) {
  if (!sqlite3_get_autocommit(db_)) {
    work();
    return;
  }
  run_in_transaction("BEGIN DEFERRED", work);
}

}  // namespace faultline::datasets
