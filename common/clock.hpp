// Time as the store records it: ISO 8601 UTC with seconds ("2024-05-30T12:00:00Z").
#pragma once

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

namespace faultline::common {

inline std::string format_iso8601(int64_t epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

inline std::string utc_now() { return format_iso8601(std::time(nullptr)); }

// Seconds since the epoch for "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SSZ"; -1 when empty or unreadable.
inline int64_t parse_iso8601(const std::string& text) {
  int y, m, d, hh = 0, mm = 0, ss = 0;
  if (text.size() < 10 || std::sscanf(text.c_str(), "%4d-%2d-%2d", &y, &m, &d) != 3) return -1;
  if (text.size() >= 19) std::sscanf(text.c_str() + 11, "%2d:%2d:%2d", &hh, &mm, &ss);
  // Days from the civil date (proleptic Gregorian), H. Hinnant's algorithm.
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = era * 146097 + doe - 719468;
  return days * 86400 + hh * 3600 + mm * 60 + ss;
}

}  // namespace faultline::common
