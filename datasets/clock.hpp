// The current time as the store records it: ISO 8601 UTC with seconds.
#pragma once

#include <ctime>
#include <string>

namespace faultline::datasets {

inline std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace faultline::datasets
