// What every command shares: where the store is, whether the output is for machines, whether progress
// lines are wanted.
#pragma once

#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/progress.hpp"
#include "common/version.hpp"
#include "datasets/store/database.hpp"

namespace faultline::cli {

struct Context {
  std::string db_path;
  bool json = false;
  bool quiet = false;

  std::unique_ptr<datasets::Database> open_db() const {
    return std::make_unique<datasets::Database>(db_path);
  }

  // Progress lines on stderr for long work; --json leaves them on (they never touch stdout).
  std::unique_ptr<common::Progress> progress() const {
    return std::make_unique<common::Progress>(std::cerr, common::Progress::style_for_stderr(quiet));
  }

  // Prints `object` on stdout, with the version of faultline that wrote it, when --json is set; otherwise
  // the human text.
  void emit(nlohmann::json object, const std::string& human) const {
    if (json) {
      object["faultline_version"] = common::version();
      std::cout << object.dump() << '\n';
    } else {
      std::cout << human;
    }
  }
};

inline std::string default_db_path() {
  const char* env = std::getenv("FAULTLINE_DB");
  return env && *env ? env : "faultline.db";
}

}  // namespace faultline::cli
