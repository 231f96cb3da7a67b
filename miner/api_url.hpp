// Which URLs the miner may request and which of them may see the token: https everywhere, plain http only
// on loopback (the tests' fake server), no credentials inside a URL, the token only for the API's origin.
#pragma once

#include <string>

namespace faultline::miner {

// "scheme://host:port", lower-cased, with the scheme's default port filled in; empty when not http(s).
std::string origin_of(const std::string& url);

// Throws Error unless the URL is https, or http to a loopback address, and carries no user:password@.
// `what` names where it came from ("the API base URL", "a redirect", …); a URL with credentials is not
// repeated in the message.
void check_request_url(const std::string& url, const std::string& what);

// `location` (absolute, or a path) resolved against the URL that answered with it.
std::string resolve_location(const std::string& from_url, const std::string& location);

}  // namespace faultline::miner
