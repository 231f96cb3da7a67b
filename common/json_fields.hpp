// Reading typed fields of JSON objects from outside (snapshot records, GitHub responses) with errors that
// name where the object came from and which field is wrong.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/error.hpp"

namespace faultline::common {

// A string field; absent → error; null → "" when `nullable`; another type → error.
inline std::string json_string(const nlohmann::json& object, const char* name, const std::string& where,
                               bool nullable = false) {
  if (!object.contains(name)) throw Error(where + ": missing field '" + name + "'");
  const nlohmann::json& v = object.at(name);
  if (nullable && v.is_null()) return "";
  if (!v.is_string()) {
    throw Error(where + ": field '" + std::string(name) + "' must be a string, not " + v.type_name());
  }
  return v.get<std::string>();
}

// An optional string field: absent or null → "".
inline std::string json_optional_string(const nlohmann::json& object, const char* name,
                                        const std::string& where) {
  return object.contains(name) ? json_string(object, name, where, true) : "";
}

inline int64_t json_integer(const nlohmann::json& object, const char* name, const std::string& where) {
  if (!object.contains(name)) throw Error(where + ": missing field '" + name + "'");
  if (!object.at(name).is_number_integer())
    throw Error(where + ": field '" + std::string(name) + "' must be an integer");
  return object.at(name).get<int64_t>();
}

}  // namespace faultline::common
