#include "datasets/store/database.hpp"

#include <sqlite3.h>

#include "datasets/store/migrations.hpp"
#include "common/error.hpp"

namespace faultline::datasets {

Statement::Statement(sqlite3* db, const std::string& sql) : db_(db), stmt_(nullptr), sql_(sql) {
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) {
    throw Error(std::string("database: cannot prepare statement: ") + sqlite3_errmsg(db_) + " in: " + sql);
  }
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), sql_(std::move(other.sql_)) {
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

Statement& Statement::bind_null(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw Error(std::string("database: ") + sqlite3_errmsg(db_) + " in: " + sql_);
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
bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

Database::Database(const std::string& path) : path_(path) { open(latest_schema_version()); }

Database::Database(const std::string& path, int version) : path_(path) { open(version); }

Database::~Database() {
  if (db_) sqlite3_close(db_);
}

void Database::open(int target_version) {
  if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    if (db_) sqlite3_close(db_);
    db_ = nullptr;
    throw Error("database " + path_ + ": cannot open: " + message);
  }
  sqlite3_busy_timeout(db_, 5000);
  exec("PRAGMA journal_mode=WAL");
  exec("PRAGMA foreign_keys=ON");
  const auto& steps = migrations();
  int current = user_version();
  if (current > latest_schema_version()) {
    throw Error("database " + path_ + ": schema version " + std::to_string(current) +
                " is newer than this faultline understands (" + std::to_string(latest_schema_version()) +
                "); use a newer faultline");
  }
  for (int v = current; v < target_version; ++v) {
    // Each step and its version bump commit together, so a crash leaves a consistent older schema.
    transaction([&] {
      exec(steps[v]);
      exec("PRAGMA user_version=" + std::to_string(v + 1));
    });
  }
}

void Database::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    throw Error("database " + path_ + ": " + text);
  }
}

int Database::user_version() {
  Statement s = prepare("PRAGMA user_version");
  s.step();
  return static_cast<int>(s.integer(0));
}

int64_t Database::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

void Database::transaction(const std::function<void()>& work) {
  exec("BEGIN IMMEDIATE");
  try {
    work();
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace faultline::datasets
