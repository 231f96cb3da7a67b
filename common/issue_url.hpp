// The web page of a GitHub issue: "https://HOST/OWNER/NAME/issues/N", or ".../pull/N" for a pull request
// (GitHub's issue listings hold both). HOST is github.com or a GitHub Enterprise server.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace faultline::common {

// The page of `repo`#`number` on github.com.
std::string issue_url(std::string_view repo, int64_t number);

// What is wrong with `url` as the page of `repo`#`number`, or "" when nothing is: the scheme is https or
// http, the host is a host name (letters, digits, '.' and '-', then an optional ":PORT"), and the path is
// exactly REPO/issues/NUMBER or REPO/pull/NUMBER, REPO compared without regard to case as GitHub does.
// Records come from outside: a URL that named another issue, or held a script, would reach every listing
// and report that shows it.
std::string issue_url_problem(std::string_view url, std::string_view repo, int64_t number);

}  // namespace faultline::common
