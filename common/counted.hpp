// Counts in prose: "1 issue", "2 issues".
#pragma once

#include <string>

namespace faultline::common {

// `plural` defaults to `singular` + "s".
inline std::string counted(long long n, const std::string& singular, const std::string& plural = "") {
  return std::to_string(n) + " " + (n == 1 ? singular : plural.empty() ? singular + "s" : plural);
}

}  // namespace faultline::common
