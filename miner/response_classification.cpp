#include "miner/response_classification.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <nlohmann/json.hpp>

#include "common/one_line.hpp"
#include "common/utf8.hpp"

namespace faultline::miner {

namespace {

std::string header(const HttpResponse& r, const std::string& name) {
  auto it = r.headers.find(name);
  return it == r.headers.end() ? "" : it->second;
}

std::optional<long long> whole_number(const std::string& text) {
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  return std::stoll(text);
}

// GitHub's own word on a refusal, the "message" of its JSON error body, to be quoted after `reason`: a 403
// may be a token without the scope, an organisation's SAML enforcement or a legal block, which only the
// message tells apart. Its first 300 bytes at most (cut between characters), on one line.
std::string with_github_message(const std::string& reason, const std::string& body) {
  const auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("message") || !j["message"].is_string()) return reason;
  std::string message = j["message"].get<std::string>();
  if (message.size() > 300) message = message.substr(0, common::utf8_prefix_length(message, 300)) + "...";
  return reason + "; GitHub says: " + common::one_line(message);
}

}  // namespace

RateLimit rate_limit_of(const HttpResponse& response) {
  RateLimit limit;
  limit.remaining = whole_number(header(response, "x-ratelimit-remaining"));
  if (auto reset = whole_number(header(response, "x-ratelimit-reset")))
    limit.reset_epoch = static_cast<double>(*reset);
  return limit;
}

std::optional<int64_t> http_date_epoch(const std::string& value) {
  std::tm tm{};
  const char* end = strptime(value.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(timegm(&tm));
}

std::optional<double> parse_retry_after(const std::string& value, double now_epoch) {
  if (auto seconds = whole_number(value)) return static_cast<double>(*seconds);
  auto date = http_date_epoch(value);
  if (!date) return std::nullopt;
  return std::max(0.0, static_cast<double>(*date) - now_epoch);
}

ResponseClass classify_response(const HttpResponse& r, double now_epoch) {
  long s = r.status;
  if (s == 200 || s == 304) return {Verdict::done, std::nullopt, "", ""};
  if (s == 404 || s == 410)
    return {Verdict::missing, std::nullopt, "", s == 404 ? "404 Not Found" : "410 Gone"};
  if (s == 301 || s == 302 || s == 307 || s == 308) {
    std::string location = header(r, "location");
    if (location.empty()) return {Verdict::fail, std::nullopt, "", "redirect without a Location"};
    return {Verdict::redirect, std::nullopt, location, "HTTP " + std::to_string(s)};
  }
  if (s == 401) return {Verdict::unauthorized, std::nullopt, "", "401 Unauthorized"};
  auto retry_after = parse_retry_after(header(r, "retry-after"), now_epoch);
  if (s == 403 || s == 429) {
    if (retry_after)
      return {Verdict::retry, std::max(1.0, *retry_after), "", "a secondary rate limit (retry-after)"};
    RateLimit limit = rate_limit_of(r);
    if (limit.remaining == 0) {
      // One second of margin for clock skew; an unreadable reset waits a minute.
      double seconds = limit.reset_epoch ? std::max(0.0, *limit.reset_epoch - now_epoch) + 1.0 : 60.0;
      return {Verdict::wait, seconds, "", "the rate limit to reset"};
    }
    // GitHub asks for at least a minute's wait after a secondary limit that names no time; the client's
    // own backoff (a second, doubling) would spend every retry within it.
    if (s == 429 || r.body.find("secondary rate limit") != std::string::npos)
      return {Verdict::retry, kSecondaryLimitWait, "", "a secondary rate limit"};
    return {Verdict::fail, std::nullopt, "",
            with_github_message("403 Forbidden (check the token and its scopes)", r.body)};
  }
  if (s >= 500) return {Verdict::retry, retry_after, "", "HTTP " + std::to_string(s)};
  return {Verdict::fail, std::nullopt, "",
          with_github_message("unexpected HTTP " + std::to_string(s), r.body)};
}

}  // namespace faultline::miner
