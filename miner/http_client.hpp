// One HTTP GET over libcurl, with RAII for the handle and header lists. Redirects are not followed here:
// the GitHub layer decides what a 301 means. Only http and https; a body is capped once decompressed.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace faultline::miner {

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased; the last value wins
  std::string body;
};

// A network-level failure (refused, reset, timed out, truncated): the caller may retry.
struct TransportError {
  std::string message;
};

// GitHub's largest responses are a few MB; a gzip bomb must not take the process's memory.
constexpr size_t kMaxResponseBytes = 64u << 20;

// `text` with each %XX written as its byte (libcurl's curl_easy_unescape; '+' stays '+'): GitHub's Link
// URLs percent-encode their query ("since=…T10%3A00%3A00Z").
std::string percent_decoded(const std::string& text);

// A connection that brings no byte for this long is given up (a transport error, retried), well before the
// request's whole limit of 120 s: a server that accepts and then says nothing would cost each retry that.
constexpr long kStallSeconds = 30;

class HttpClient {
 public:
  explicit HttpClient(size_t max_body_bytes = kMaxResponseBytes, long stall_seconds = kStallSeconds);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Returns the response, or fills `error` and returns false on a transport failure. Throws Error naming
  // the URL when the decompressed body exceeds the cap.
  bool get(const std::string& url, const std::vector<std::string>& headers, HttpResponse* response,
           TransportError* error);

 private:
  void* curl_;  // CURL*, kept opaque so that callers need not include curl.h
  size_t max_body_bytes_;
  long stall_seconds_;
};

}  // namespace faultline::miner
