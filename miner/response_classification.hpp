// What one GitHub response means for the request that got it: done, retry, wait, redirect, or an error.
// Pure functions of the status and headers (and the current time), so every rule is unit-tested on
// hand-built responses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "miner/http_client.hpp"

namespace faultline::miner {

enum class Verdict {
  done,          // 200 or 304: the answer
  missing,       // 404 or 410: the object is not there (an error unless the caller expects it)
  redirect,      // 301/302/307/308 with a Location
  retry,         // transient: 5xx, a secondary limit, Retry-After; budgeted per request
  wait,          // the primary rate limit is spent until its reset
  unauthorized,  // 401: the token is invalid or expired
  fail,          // anything else: an error naming the URL
};

struct ResponseClass {
  Verdict verdict = Verdict::fail;
  // retry: the delay the server asked for (Retry-After, or a minute after a secondary limit that names
  // none), or empty for the client's own backoff;
  // wait: seconds until the rate limit resets.
  std::optional<double> wait_s;
  std::string location;  // redirect only, as sent
  std::string reason;    // for messages: "HTTP 502", "a secondary rate limit", …
};

// The x-ratelimit-remaining / x-ratelimit-reset pair, when the response carries readable values.
struct RateLimit {
  std::optional<long long> remaining;
  std::optional<double> reset_epoch;
};
RateLimit rate_limit_of(const HttpResponse& response);

// Seconds since the epoch of an HTTP-date in the form servers send (IMF-fixdate, "Wed, 21 Oct 2015 07:28:00
// GMT"); empty for any other text.
std::optional<int64_t> http_date_epoch(const std::string& value);

// Seconds to wait for a Retry-After value in either form the HTTP standard allows: delta-seconds ("120")
// or an HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT"); empty when it is neither. Never negative.
std::optional<double> parse_retry_after(const std::string& value, double now_epoch);

// The wait after a secondary rate limit (403 saying so, or 429) that gives no Retry-After: GitHub's
// documentation asks for at least a minute.
constexpr double kSecondaryLimitWait = 60;

ResponseClass classify_response(const HttpResponse& response, double now_epoch);

}  // namespace faultline::miner
