#include "miner/github_api.hpp"

#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "miner/api_url.hpp"

namespace faultline::miner {

namespace {

const char* const kApiVersion = "2022-11-28";
// How far GitHub's Date may be from this machine's clock and still be taken as GitHub's clock, and how near
// it is taken as the same clock (the Date has whole seconds: the same clock reads up to a second behind).
constexpr double kMostClockDifference = 24 * 3600;
constexpr double kSameClock = 2;

std::string header(const HttpResponse& r, const std::string& name) {
  auto it = r.headers.find(name);
  return it == r.headers.end() ? "" : it->second;
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

GitHubApi::GitHubApi(ApiOptions options)
    : options_(std::move(options)),
      http_(options_.max_response_bytes, options_.stall_seconds),
      pool_(options_.tokens) {
  while (!options_.base_url.empty() && options_.base_url.back() == '/') options_.base_url.pop_back();
  check_request_url(options_.base_url, "the API base URL (--api-url or GITHUB_API_URL)");
  origin_ = origin_of(options_.base_url);
  if (!options_.sleep)
    options_.sleep = [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); };
}

double GitHubApi::now() const {
  if (options_.now) return options_.now();
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void GitHubApi::wait(double seconds, const std::string& why) {
  double resume = now() + seconds;
  if (seconds > options_.max_wait_s) throw WaitTooLong{seconds, resume, why};
  std::string until = " (until " + common::format_iso8601(std::llround(resume)) + ")";
  double step_max = std::max(0.001, options_.wait_report_interval_s);
  for (double left = seconds; left > 0;) {
    if (options_.on_wait)
      options_.on_wait("waiting " + std::to_string(static_cast<long long>(std::ceil(left))) + " s for " +
                       why + until);
    double step = std::min(left, step_max);
    options_.sleep(step);
    left -= step;
  }
}

void GitHubApi::retry(int& attempt, const std::optional<double>& delay, const std::string& why,
                      const std::string& url) {
  if (attempt >= options_.max_retries)
    throw Error("GET " + url + ": " + why + " (gave up after " + std::to_string(attempt) + " retries)");
  if (delay) {
    ++stats_.rate_limit_waits;
    ++attempt;
    wait(*delay, why);
    return;
  }
  ++stats_.retries;
  // Exponential with full jitter: uniform in [0.5, 1.5) × base × 2^attempt.
  static std::mt19937 jitter(std::random_device{}());
  double factor = std::uniform_real_distribution<double>(0.5, 1.5)(jitter);
  wait(options_.backoff_ms / 1000.0 * std::pow(2.0, attempt++) * factor, "a retry after " + why);
}

size_t GitHubApi::take_token() {
  double wait_s = pool_.seconds_until_available(now());
  if (wait_s > 0) {
    ++stats_.rate_limit_waits;
    wait(wait_s, pool_.size() > 1 ? "the rate limits of all tokens to reset" : "the rate limit to reset");
  }
  if (options_.max_requests >= 0 && stats_.requests >= options_.max_requests) throw RequestBudgetExhausted{};
  return *pool_.pick(now());
}

bool GitHubApi::send(const std::string& url, const std::optional<datasets::Validator>& validator, size_t slot,
                     HttpResponse* response, TransportError* error) {
  std::vector<std::string> headers{"Accept: application/vnd.github+json",
                                   std::string("X-GitHub-Api-Version: ") + kApiVersion,
                                   "User-Agent: faultline/0.1"};
  // The token is for GitHub's API alone: a redirect elsewhere is followed without it.
  if (!pool_.token(slot).empty() && origin_of(url) == origin_)
    headers.push_back("Authorization: Bearer " + pool_.token(slot));
  if (validator && !validator->etag.empty()) headers.push_back("If-None-Match: " + validator->etag);
  if (validator && !validator->last_modified.empty())
    headers.push_back("If-Modified-Since: " + validator->last_modified);
  ++stats_.requests;
  return http_.get(url, headers, response, error);
}

void GitHubApi::drop_token(size_t slot, const std::string& url) {
  if (pool_.token(slot).empty())
    throw Error("GET " + url + ": 401 Unauthorized (the API asks for a token: set GITHUB_TOKEN)");
  pool_.drop(slot);
  if (options_.on_warning)
    options_.on_warning("token " + std::to_string(slot + 1) + " of " + std::to_string(pool_.size()) +
                        " was refused (401 Unauthorized) and is no longer used");
  if (pool_.usable() == 0)
    throw Error("GET " + url +
                ": 401 Unauthorized for every token (GITHUB_TOKEN/GITHUB_TOKENS invalid or expired)");
}

Page GitHubApi::finish(const HttpResponse& r, const std::string& url, bool redirected,
                       const std::string& server_time) {
  Page page;
  page.status = r.status;
  page.url = url;
  page.redirected = redirected;
  page.rate_remaining = header(r, "x-ratelimit-remaining");
  page.server_time = server_time;
  if (r.status == 304) {
    ++stats_.not_modified;
    return page;
  }
  try {
    page.body = nlohmann::json::parse(r.body);
  } catch (const nlohmann::json::parse_error& e) {
    throw Error("GET " + url + ": malformed JSON in the response (" + std::string(e.what()) + ")");
  }
  page.next_url = next_link(header(r, "link"));
  // An empty page says there is no more; a next link beside it would lead on forever, each link new.
  if (page.body.is_array() && page.body.empty() && !page.next_url.empty())
    throw Error("GET " + url + ": an empty page with a next link");
  if (!page.next_url.empty() && origin_of(page.next_url) != origin_) {
    throw Error("GET " + url + ": the Link header points the next page at another origin (" +
                origin_of(page.next_url) + "); refusing to follow it");
  }
  page.validator = {header(r, "etag"), header(r, "last-modified")};
  return page;
}

Page GitHubApi::get(const std::string& path_or_url, const std::optional<datasets::Validator>& validator,
                    bool missing_ok) {
  std::string url = path_or_url.rfind("http", 0) == 0 ? path_or_url : options_.base_url + path_or_url;
  bool redirected = false;
  int attempt = 0;
  int redirects = 0;
  std::string failed;  // why the request is being tried again, if it is
  while (true) {
    size_t slot = 0;
    try {
      slot = take_token();
    } catch (RequestBudgetExhausted& spent) {
      if (!failed.empty()) spent.while_retrying = "GET " + url + ": " + failed;
      throw;
    }
    HttpResponse r;
    TransportError transport;
    if (!send(url, validator, slot, &r, &transport)) {
      retry(attempt, std::nullopt, transport.message, url);
      failed = transport.message;
      continue;
    }
    failed.clear();  // an answer came: only one that is retried below fails again
    // GitHub's clock, by its Date header, and this machine's may differ: a reset is waited for in GitHub's,
    // moved into this machine's clock by the difference (a machine running ahead woke before the reset and
    // spent its retries). A Date over a day away from this machine's clock is not taken as GitHub's.
    const double here = now();
    double ahead_of_here = 0;  // GitHub's clock minus this machine's, in whole seconds of the Date
    std::string server_time;   // the Date, where it can be GitHub's clock (Page::server_time)
    if (const auto date = http_date_epoch(header(r, "date"))) {
      last_server_time_ = common::format_iso8601(*date);
      const double difference = static_cast<double>(*date) - here;
      if (std::fabs(difference) <= kMostClockDifference) server_time = last_server_time_;
      if (std::fabs(difference) > kSameClock && std::fabs(difference) <= kMostClockDifference)
        ahead_of_here = difference;
    }
    RateLimit limit = rate_limit_of(r);
    if (limit.reset_epoch) *limit.reset_epoch -= ahead_of_here;
    pool_.observe(slot, limit);
    ResponseClass c = classify_response(r, here + ahead_of_here);
    switch (c.verdict) {
      case Verdict::done:
        // "Not modified" since a version this client never named: a misbehaving cache, whose answer would
        // end a listing as if nothing had changed.
        if (r.status == 304 && !validator)
          throw Error("GET " + url + ": answered 304 Not Modified to a request that named no stored version");
        return finish(r, url, redirected, server_time);
      case Verdict::missing:
        if (missing_ok) {
          Page page;
          page.status = r.status;
          page.url = url;
          page.redirected = redirected;
          return page;
        }
        throw Error("GET " + url + ": " + c.reason +
                    (r.status == 404 ? ": no such repository, or not visible with this token" : ""));
      case Verdict::redirect:
        if (++redirects > 5) throw Error("GET " + url + ": more than 5 redirects");
        url = resolve_location(url, c.location);
        check_request_url(url, "a redirect from GitHub to");
        redirected = true;
        continue;
      case Verdict::retry:
        retry(attempt, c.wait_s, c.reason, url);
        failed = c.reason;
        continue;
      case Verdict::wait:
        // The next take_token() waits for the reset, unless another token of the pool has requests left.
        if (attempt++ >= options_.max_retries)
          throw Error("GET " + url + ": still rate limited after " + std::to_string(options_.max_retries) +
                      " waits for the reset");
        pool_.spend(slot, now() + *c.wait_s);
        continue;
      case Verdict::unauthorized:
        drop_token(slot, url);
        continue;
      case Verdict::fail:
        throw Error("GET " + url + ": " + c.reason);
    }
  }
}

}  // namespace faultline::miner
