#include "miner/api_url.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"

namespace faultline::miner {

namespace {

struct Authority {
  std::string scheme;  // lower-cased
  std::string userinfo;
  std::string host;  // lower-cased, IPv6 without brackets
  std::string port;
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool split(const std::string& url, Authority* a) {
  auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return false;
  a->scheme = lower(url.substr(0, scheme_end));
  std::string authority =
      url.substr(scheme_end + 3, url.find_first_of("/?#", scheme_end + 3) - scheme_end - 3);
  auto at = authority.rfind('@');
  if (at != std::string::npos) {
    a->userinfo = authority.substr(0, at);
    authority.erase(0, at + 1);
  }
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos) return false;
    a->host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':') a->port = authority.substr(close + 2);
  } else {
    auto colon = authority.find(':');
    a->host = authority.substr(0, colon);
    if (colon != std::string::npos) a->port = authority.substr(colon + 1);
  }
  a->host = lower(a->host);
  if (a->port.empty()) a->port = a->scheme == "https" ? "443" : a->scheme == "http" ? "80" : "";
  return !a->host.empty();
}

// localhost, ::1 or a dotted-decimal address in 127.0.0.0/8.
bool is_loopback(const std::string& host) {
  if (host == "localhost" || host == "::1") return true;
  if (host.rfind("127.", 0) != 0) return false;
  int dots = 0;
  for (char c : host) {
    if (c == '.') {
      ++dots;
    } else if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return dots == 3;
}

}  // namespace

std::string origin_of(const std::string& url) {
  Authority a;
  if (!split(url, &a) || (a.scheme != "http" && a.scheme != "https")) return "";
  return a.scheme + "://" + a.host + ":" + a.port;
}

void check_request_url(const std::string& url, const std::string& what) {
  Authority a;
  if (!split(url, &a)) throw Error(what + " '" + url + "' is not an absolute http(s) URL");
  if (!a.userinfo.empty()) {
    throw Error(what + " must not embed credentials (user:password@" + a.host +
                "); give the token in GITHUB_TOKEN or GITHUB_TOKENS");
  }
  if (a.scheme == "https" || (a.scheme == "http" && is_loopback(a.host))) return;
  throw Error(what + " '" + url + "' is not https (plain http is allowed only for loopback addresses)");
}

std::string resolve_location(const std::string& from_url, const std::string& location) {
  if (location.find("://") != std::string::npos) return location;
  auto scheme = from_url.find("://");
  auto host_end = from_url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return (host_end == std::string::npos ? from_url : from_url.substr(0, host_end)) + location;
}

}  // namespace faultline::miner
