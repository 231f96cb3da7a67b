#include "miner/github_api.hpp"

#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "common/error.hpp"

namespace faultline::miner {

namespace {

const char* const kApiVersion = "2022-11-28";

std::string header(const HttpResponse& r, const std::string& name) {
  auto it = r.headers.find(name);
  return it == r.headers.end() ? "" : it->second;
}

double seconds_until_reset(const std::string& reset_epoch) {
  try {
    double reset = std::stod(reset_epoch);
    double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    return std::max(0.0, reset - now) + 1.0;  // one second of margin for clock skew
  } catch (const std::exception&) {
    return 60.0;
  }
}

std::string absolute(const std::string& base, const std::string& location) {
  if (location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0) return location;
  auto scheme = base.find("://");
  auto host_end = base.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return (host_end == std::string::npos ? base : base.substr(0, host_end)) + location;
}

}  // namespace

std::string next_link(const std::string& link_header) {
  size_t pos = 0;
  while ((pos = link_header.find('<', pos)) != std::string::npos) {
    size_t end = link_header.find('>', pos);
    if (end == std::string::npos) break;
    size_t stop = link_header.find(',', end);
    std::string params =
        link_header.substr(end + 1, stop == std::string::npos ? std::string::npos : stop - end - 1);
    if (params.find("rel=\"next\"") != std::string::npos) return link_header.substr(pos + 1, end - pos - 1);
    pos = end + 1;
  }
  return "";
}

GitHubApi::GitHubApi(ApiOptions options) : options_(std::move(options)) {
  while (!options_.base_url.empty() && options_.base_url.back() == '/') options_.base_url.pop_back();
}

void GitHubApi::wait_seconds(double seconds, const std::string& why) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    double left = std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count();
    if (left <= 0) break;
    if (options_.on_wait)
      options_.on_wait("waiting " + std::to_string(static_cast<int>(std::ceil(left))) + " s for " + why);
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 1.0)));
  }
}

void GitHubApi::retry(int& attempt, const std::string& why, const std::string& give_up) {
  if (attempt >= options_.max_retries) throw Error(give_up);
  ++stats_.retries;
  // Exponential with full jitter: uniform in [0.5, 1.5) × base × 2^attempt.
  static std::mt19937 jitter(std::random_device{}());
  double factor = std::uniform_real_distribution<double>(0.5, 1.5)(jitter);
  wait_seconds(options_.backoff_ms / 1000.0 * std::pow(2.0, attempt++) * factor, why);
}

Page GitHubApi::get(const std::string& path_or_url, const std::optional<datasets::Validator>& validator) {
  std::string url = path_or_url.rfind("http", 0) == 0 ? path_or_url : options_.base_url + path_or_url;
  Page page;
  int attempt = 0;
  int redirects = 0;
  while (true) {
    if (wait_before_next_ > 0) {
      ++stats_.rate_limit_waits;
      wait_seconds(wait_before_next_, "the rate limit to reset");
      wait_before_next_ = 0;
    }
    if (options_.max_requests >= 0 && stats_.requests >= options_.max_requests)
      throw RequestBudgetExhausted{};
    std::vector<std::string> headers{"Accept: application/vnd.github+json",
                                     std::string("X-GitHub-Api-Version: ") + kApiVersion,
                                     "User-Agent: faultline/0.1"};
    if (!options_.token.empty()) headers.push_back("Authorization: Bearer " + options_.token);
    if (validator && !validator->etag.empty()) headers.push_back("If-None-Match: " + validator->etag);
    if (validator && !validator->last_modified.empty())
      headers.push_back("If-Modified-Since: " + validator->last_modified);

    HttpResponse r;
    TransportError transport;
    ++stats_.requests;
    if (!http_.get(url, headers, &r, &transport)) {
      retry(attempt, "a retry after: " + transport.message,
            "GET " + url + ": " + transport.message + " (gave up after " + std::to_string(attempt) +
                " retries)");
      continue;
    }
    page.rate_remaining = header(r, "x-ratelimit-remaining");
    if (page.rate_remaining == "0" && r.status < 400)
      wait_before_next_ = seconds_until_reset(header(r, "x-ratelimit-reset"));

    if (r.status == 301 || r.status == 302 || r.status == 307 || r.status == 308) {
      std::string location = header(r, "location");
      if (location.empty() || ++redirects > 5)
        throw Error("GET " + url + ": redirect without a usable Location");
      url = absolute(url, location);
      page.redirected = true;
      continue;
    }
    if (r.status == 403 || r.status == 429) {
      std::string retry_after = header(r, "retry-after");
      if (!retry_after.empty()) {
        ++stats_.rate_limit_waits;
        wait_seconds(std::max(1.0, std::atof(retry_after.c_str())), "a secondary rate limit (retry-after)");
        continue;
      }
      if (page.rate_remaining == "0") {
        ++stats_.rate_limit_waits;
        wait_seconds(seconds_until_reset(header(r, "x-ratelimit-reset")), "the rate limit to reset");
        continue;
      }
      if (r.status == 429 || r.body.find("secondary rate limit") != std::string::npos) {
        retry(attempt, "a secondary rate limit",
              "GET " + url + ": still rate limited after " + std::to_string(attempt) + " retries");
        continue;
      }
      throw Error("GET " + url + ": 403 Forbidden (check GITHUB_TOKEN and its scopes)");
    }
    if (r.status >= 500) {
      retry(attempt, "a retry after HTTP " + std::to_string(r.status),
            "GET " + url + ": HTTP " + std::to_string(r.status) + " after " + std::to_string(attempt) +
                " retries");
      continue;
    }
    page.status = r.status;
    page.url = url;
    if (r.status == 304) {
      ++stats_.not_modified;
      return page;
    }
    if (r.status == 404 || r.status == 410) {
      throw Error(
          "GET " + url + ": " + std::to_string(r.status) +
          (r.status == 404 ? " Not Found: no such repository, or not visible with this token" : " Gone"));
    }
    if (r.status == 401)
      throw Error("GET " + url + ": 401 Unauthorized (GITHUB_TOKEN is invalid or expired)");
    if (r.status != 200) throw Error("GET " + url + ": unexpected HTTP " + std::to_string(r.status));
    try {
      page.body = nlohmann::json::parse(r.body);
    } catch (const nlohmann::json::parse_error& e) {
      throw Error("GET " + url + ": malformed JSON in the response (" + std::string(e.what()) + ")");
    }
    page.next_url = next_link(header(r, "link"));
    page.validator = {header(r, "etag"), header(r, "last-modified")};
    return page;
  }
}

}  // namespace faultline::miner
