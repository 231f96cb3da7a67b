// GitHub REST requests as the documentation asks for them: versioned headers, a bearer token (only ever
// sent to the API's own origin), conditional requests, rate-limit waits bounded by --max-wait, bounded
// retries with backoff, redirects for renamed repositories.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "datasets/store/mining_store.hpp"
#include "miner/http_client.hpp"
#include "miner/response_classification.hpp"
#include "miner/token_pool.hpp"

namespace faultline::miner {

struct ApiOptions {
  std::string base_url = "https://api.github.com";
  std::vector<std::string> tokens;  // never printed, logged or stored; none: anonymous (60 requests/hour)
  long max_requests = -1;           // stop cleanly after this many (-1: no limit)
  int backoff_ms = 1000;            // base of the exponential backoff
  // Per request, shared by 5xx, transport errors, 403/429 limits (with or without Retry-After) and
  // rate-limit resets: a server that never stops refusing ends the mine with an error, not a loop.
  int max_retries = 5;
  double max_wait_s = 3600;            // a longer wait stops the mine cleanly (resumable) instead of sleeping
  double wait_report_interval_s = 60;  // on_wait hears a waiting line at least this often
  size_t max_response_bytes = kMaxResponseBytes;
  long stall_seconds = kStallSeconds;  // a connection silent this long is dropped and the request retried
  std::function<void(const std::string&)> on_wait;     // "waiting N s for … (until …)"
  std::function<void(const std::string&)> on_warning;  // a dropped token, named by its position
  // Injectable for tests: how to sleep, and the wall clock in epoch seconds.
  std::function<void(double)> sleep;
  std::function<double()> now;
};

struct RequestStats {
  long requests = 0;
  long not_modified = 0;
  long retries = 0;
  long rate_limit_waits = 0;
};

struct Page {
  long status = 0;  // 200 or 304; 404/410 only for a get(…, missing_ok)
  std::string url;  // after redirects
  bool redirected = false;
  nlohmann::json body;   // parsed JSON (200 only)
  std::string next_url;  // Link rel="next" (same origin as the API), empty on the last page
  datasets::Validator validator;
  std::string rate_remaining;
  // The answer's Date as YYYY-MM-DDTHH:MM:SSZ; empty without a readable one or one over a day away from this
  // machine's clock (not GitHub's clock, then).
  std::string server_time;
};

// Thrown when --max-requests is reached; the miner stops cleanly with everything so far stored.
struct RequestBudgetExhausted {
  // The failure a retry was due for when the budget ran out ("GET URL: why"), so a stop does not hide that
  // every request failed (a host that cannot be resolved read as a budget spent); empty otherwise.
  std::string while_retrying;
};

// Thrown instead of a wait longer than --max-wait; the miner stops cleanly and says when to run again.
struct WaitTooLong {
  double seconds;
  double resume_epoch;
  std::string why;
};

class GitHubApi {
 public:
  // Throws Error for a base URL that is not https (or loopback http) or embeds credentials.
  explicit GitHubApi(ApiOptions options);
  // GET an API path ("/repos/o/r") or a full URL. Sends the validator when given; throws faultline::Error
  // naming the URL for 4xx (404/410 come back as a Page when `missing_ok`), malformed JSON, a Link to
  // another origin, and retries exhausted.
  Page get(const std::string& path_or_url, const std::optional<datasets::Validator>& validator,
           bool missing_ok = false);
  const RequestStats& stats() const { return stats_; }
  // GitHub's clock at its last answer, as its times are written (its Date header); empty before any answer
  // that had one.
  const std::string& last_server_time() const { return last_server_time_; }
  const std::string& base_url() const { return options_.base_url; }

 private:
  // Waits (bounded) until a token has requests left, checks --max-requests, and returns the token's slot.
  size_t take_token();
  bool send(const std::string& url, const std::optional<datasets::Validator>& validator, size_t slot,
            HttpResponse* response, TransportError* error);
  Page finish(const HttpResponse& r, const std::string& url, bool redirected, const std::string& server_time);
  // Drops a token answered 401, with a warning naming its position; throws when none is left.
  void drop_token(size_t slot, const std::string& url);
  // One more try after `delay` (or a jittered exponential backoff), or Error once the retries are spent.
  void retry(int& attempt, const std::optional<double>& delay, const std::string& why,
             const std::string& url);
  void wait(double seconds, const std::string& why);
  double now() const;

  ApiOptions options_;
  std::string origin_;
  HttpClient http_;
  TokenPool pool_;
  RequestStats stats_;
  std::string last_server_time_;
};

// The URL with rel="next" in a Link header, or empty.
std::string next_link(const std::string& link_header);

}  // namespace faultline::miner
