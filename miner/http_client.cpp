#include "miner/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <memory>

#include "common/error.hpp"

namespace faultline::miner {

std::string percent_decoded(const std::string& text) {
  int length = 0;
  // libcurl ignores the handle since 7.82; a null one is allowed.
  std::unique_ptr<char, decltype(&curl_free)> decoded(
      curl_easy_unescape(nullptr, text.data(), static_cast<int>(text.size()), &length), &curl_free);
  if (!decoded) throw Error("cannot decode '" + text + "' (out of memory?)");
  return std::string(decoded.get(), static_cast<size_t>(length));
}

namespace {

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

struct BodySink {
  std::string* body;
  size_t max_bytes;
  bool overflow = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<BodySink*>(user);
  if (sink->body->size() + size * count > sink->max_bytes) {
    sink->overflow = true;
    return 0;  // libcurl aborts the transfer
  }
  sink->body->append(data, size * count);
  return size * count;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  std::string line(data, size * count);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t\r\n") + 1);
    (*static_cast<std::map<std::string, std::string>*>(user))[name] = value;
  }
  return size * count;
}

}  // namespace

HttpClient::HttpClient(size_t max_body_bytes, long stall_seconds)
    : max_body_bytes_(max_body_bytes), stall_seconds_(stall_seconds) {
  static const CURLcode global = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (global != CURLE_OK) throw Error("libcurl could not be initialised");
  curl_ = curl_easy_init();
  if (!curl_) throw Error("libcurl could not create a handle");
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

bool HttpClient::get(const std::string& url, const std::vector<std::string>& headers, HttpResponse* response,
                     TransportError* error) {
  CURL* curl = static_cast<CURL*>(curl_);
  curl_easy_reset(curl);
  std::unique_ptr<curl_slist, SlistDeleter> list;
  for (const auto& h : headers) list.reset(curl_slist_append(list.release(), h.c_str()));
  *response = HttpResponse{};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list.get());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  BodySink sink{&response->body, max_body_bytes_};
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response->headers);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 20L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 120L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);  // bytes per second, over the stall time
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, stall_seconds_);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  CURLcode rc = curl_easy_perform(curl);
  if (sink.overflow) {
    throw Error("GET " + url + ": the response exceeds " + std::to_string(max_body_bytes_ >> 20) +
                " MiB once decompressed, far more than GitHub sends; refusing it");
  }
  if (rc != CURLE_OK) {
    error->message = curl_easy_strerror(rc);
    return false;
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
  return true;
}

}  // namespace faultline::miner
