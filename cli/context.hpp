// What every command shares: where the store is and whether the output is for machines.
#pragma once

#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "datasets/store/database.hpp"

namespace faultline::cli {

struct Context {
  std::string db_path;
  bool json = false;

  std::unique_ptr<datasets::Database> open_db() const {
    return std::make_unique<datasets::Database>(db_path);
  }

  // Prints `object` on stdout when --json is set, otherwise the human text.
  void emit(const nlohmann::json& object, const std::string& human) const {
    if (json) {
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
