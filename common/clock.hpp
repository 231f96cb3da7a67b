// Time as the store records it: ISO 8601 UTC with seconds ("2024-05-30T12:00:00Z").
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>

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

// The two forms the store records time in: a day ("2024-05-30") and a moment in UTC
// ("2024-05-30T12:00:00Z"). Only these compare as strings in time order, which the time split relies on.
enum class TimestampForm { kNeither, kDay, kMoment };

// Which form `text` is in, checked digit by digit and against the calendar (months of 28 to 31 days, leap
// years by the Gregorian rule, hours below 24) and from 1970 on (parse_iso8601's seconds are never negative,
// which the sampler's "unknown" (-1) relies on; GitHub began in 2008); kNeither for anything else, the empty
// string included.
inline TimestampForm timestamp_form(std::string_view text) {
  auto digits = [&](size_t at, size_t n, int& value) {
    value = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
      value = value * 10 + (text[i] - '0');
    }
    return true;
  };
  if (text.size() != 10 && text.size() != 20) return TimestampForm::kNeither;
  int y, m, d;
  if (!digits(0, 4, y) || text[4] != '-' || !digits(5, 2, m) || text[7] != '-' || !digits(8, 2, d))
    return TimestampForm::kNeither;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1970 || m < 1 || m > 12 || d < 1 || d > kDays[m - 1] + (m == 2 && leap))
    return TimestampForm::kNeither;
  if (text.size() == 10) return TimestampForm::kDay;
  int hh, mm, ss;
  if (text[10] != 'T' || !digits(11, 2, hh) || text[13] != ':' || !digits(14, 2, mm) || text[16] != ':' ||
      !digits(17, 2, ss) || text[19] != 'Z' || hh > 23 || mm > 59 || ss > 59)
    return TimestampForm::kNeither;
  return TimestampForm::kMoment;
}

// Whether `later` is not before `earlier` (each of a timestamp_form, or empty), compared over the shorter
// one's length: a day and a moment of that day are in order either way, and an empty one (no time
// recorded) with any.
inline bool not_before(std::string_view later, std::string_view earlier) {
  const size_t compared = std::min(later.size(), earlier.size());
  return later.substr(0, compared) >= earlier.substr(0, compared);
}

}  // namespace faultline::common
