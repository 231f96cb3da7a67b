// What every command shares: where the store is, whether the output is for machines, whether progress
// lines are wanted.
#pragma once

#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"
#include "common/version.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/new_store.hpp"

namespace faultline::cli {

struct Context {
  std::string db_path;
  bool json = false;
  bool quiet = false;
  double busy_timeout_s = 5;

  // The store of a verb that needs one: "no store at PATH" when it does not exist.
  std::unique_ptr<datasets::Database> open_db() const { return open(false); }
  // The store of a verb that brings data in (import, mine): created when missing.
  std::unique_ptr<datasets::Database> open_or_create_db() const { return open(true); }

  // Runs an all-or-nothing verb (import) on the store, made when missing, and then only if the verb
  // succeeds (datasets::work_on_store_or_make_one).
  void on_store_or_none(const std::function<void(datasets::Database&)>& work) const {
    datasets::work_on_store_or_make_one(db_path, options(true), work);
  }

  // Progress lines on stderr for long work; --json leaves them on (they never touch stdout).
  std::unique_ptr<common::Progress> progress() const {
    return std::make_unique<common::Progress>(std::cerr, common::Progress::style_for_stderr(quiet));
  }

  // Prints `object` on stdout, with the version of faultline that wrote it, when --json is set; otherwise
  // the human text.
  void emit(const nlohmann::json& object, const std::string& human) const {
    emit_to(std::cout, object, human);
  }

  // The same for a verb that wrote its output to `out_path`: on stderr when that is stdout itself
  // (`--out /dev/stdout`), so that the output stays only what it says it is.
  void emit_about_output(const std::string& out_path, const nlohmann::json& object,
                         const std::string& human) const {
    emit_to(notes_about(out_path), object, human);
  }

  // Where a verb writes what it says about the output it writes to `out_path`: stderr when that is stdout
  // itself, else stdout (no output file, an empty path, included).
  static std::ostream& notes_about(const std::string& out_path) {
    return !out_path.empty() && common::names_standard_output(out_path) ? std::cerr : std::cout;
  }

  // Prints `object` on `to` (stdout) as one line, with the version of faultline that wrote it.
  static void print_json(nlohmann::json object, std::ostream& to = std::cout) {
    object["faultline_version"] = common::version();
    // Text from the command line or the store may not be UTF-8; JSON must be, so such bytes print as U+FFFD
    // instead of aborting the command after its work is done.
    to << object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }

 private:
  void emit_to(std::ostream& to, const nlohmann::json& object, const std::string& human) const {
    if (json) {
      print_json(object, to);
    } else {
      to << human;
    }
  }
  datasets::OpenOptions options(bool create_if_missing) const {
    return {create_if_missing, static_cast<int>(busy_timeout_s * 1000)};
  }
  std::unique_ptr<datasets::Database> open(bool create_if_missing) const {
    return std::make_unique<datasets::Database>(db_path, options(create_if_missing));
  }
};

// FAULTLINE_BUSY_TIMEOUT in seconds, else 5; a value that is not a number is the user's mistake to hear of.
inline double default_busy_timeout_s() {
  const char* env = std::getenv("FAULTLINE_BUSY_TIMEOUT");
  if (!env || !*env) return 5;
  char* end = nullptr;
  double seconds = std::strtod(env, &end);
  if (*end || !(seconds >= 0) || std::isinf(seconds)) {
    throw Error(std::string("FAULTLINE_BUSY_TIMEOUT=") + env + ": not a number of seconds (e.g. 30)");
  }
  return seconds;
}

inline std::string default_db_path() {
  const char* env = std::getenv("FAULTLINE_DB");
  return env && *env ? env : "faultline.db";
}

}  // namespace faultline::cli
