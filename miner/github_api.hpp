// GitHub REST requests as the documentation asks for them: versioned headers, a bearer token, conditional
// requests, rate-limit waits, bounded retries with backoff, redirects for renamed repositories.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "datasets/store/mining_store.hpp"
#include "miner/http_client.hpp"

namespace faultline::miner {

struct ApiOptions {
  std::string base_url = "https://api.github.com";
  std::string token;       // never printed, logged or stored
  long max_requests = -1;  // stop cleanly after this many (-1: no limit)
  int backoff_ms = 1000;   // base of the exponential backoff
  int max_retries = 5;     // per request, for 5xx, transport errors and secondary limits
  std::function<void(const std::string&)> on_wait;  // hears "waiting N s for …" while sleeping
};

struct RequestStats {
  long requests = 0;
  long not_modified = 0;
  long retries = 0;
  long rate_limit_waits = 0;
};

struct Page {
  long status = 0;  // 200 or 304
  std::string url;  // after redirects
  bool redirected = false;
  nlohmann::json body;   // parsed JSON (200 only)
  std::string next_url;  // Link rel="next", empty on the last page
  datasets::Validator validator;
  std::string rate_remaining;
};

// Thrown when --max-requests is reached; the miner stops cleanly with everything so far stored.
struct RequestBudgetExhausted {};

class GitHubApi {
 public:
  explicit GitHubApi(ApiOptions options);
  // GET an API path ("/repos/o/r") or a full URL. Sends the validator when given; throws faultline::Error
  // naming the URL for 4xx, malformed JSON, and retries exhausted.
  Page get(const std::string& path_or_url, const std::optional<datasets::Validator>& validator);
  const RequestStats& stats() const { return stats_; }
  const std::string& base_url() const { return options_.base_url; }

 private:
  void wait_seconds(double seconds, const std::string& why);
  // One more retry after a jittered exponential wait, or Error(give_up) once the retries are spent.
  void retry(int& attempt, const std::string& why, const std::string& give_up);

  ApiOptions options_;
  HttpClient http_;
  RequestStats stats_;
  double wait_before_next_ = 0;  // seconds, when the last response exhausted the primary limit
};

// The URL with rel="next" in a Link header, or empty.
std::string next_link(const std::string& link_header);

}  // namespace faultline::miner
