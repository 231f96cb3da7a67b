#include "common/strict_json.hpp"

#include <set>
#include <vector>

#include "common/error.hpp"
#include "common/one_line.hpp"

namespace faultline::common {

nlohmann::json parse_json_strictly(const std::string& text, const std::string& where) {
  using nlohmann::json;
  std::vector<std::set<std::string>> keys;  // of each object being read, innermost last
  std::string repeated;
  auto check = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.back().insert(parsed.get<std::string>()).second &&
        repeated.empty())
      repeated = parsed.get<std::string>();
    return true;
  };
  json parsed;
  try {
    parsed = json::parse(text, check);
  } catch (const json::parse_error& e) {
    throw Error(where + ": not valid JSON (" + e.what() + ")");
  }
  if (!repeated.empty()) {
    constexpr size_t kShown = 80;  // of a key that may be as long as the line
    const std::string shown = repeated.size() > kShown ? repeated.substr(0, kShown) + "..." : repeated;
    throw Error(where + ": the key '" + one_line(shown) + "' appears twice in one object");
  }
  return parsed;
}

}  // namespace faultline::common
