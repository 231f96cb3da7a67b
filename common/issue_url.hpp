// The web page of a GitHub issue: "https://HOST/OWNER/NAME/issues/N", or ".../pull/N" for a pull request
// (GitHub's issue listings hold both). HOST is github.com or a GitHub Enterprise server.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace faultline::common {

// The page of `repo`#`number` on github.com.
std::string issue_url(std::string_view repo, int64_t number);

// An issue page's URL, read into its parts (views into the URL).
struct IssuePage {
  std::string_view host;  // with its ":PORT", if any
  std::string_view repo;  // OWNER/NAME, spelled as in the URL
  bool pull_request = false;
  std::string_view number;  // digits
};

// `url` read as an issue page, or nothing, with what is wrong in `problem` when it is given: the scheme is
// https or http, the host a host name with no user name before it (letters, digits, '.' and '-', then an
// optional ":PORT"), and the path exactly OWNER/NAME/issues/NUMBER or OWNER/NAME/pull/NUMBER, OWNER/NAME a
// name GitHub accepts.
std::optional<IssuePage> read_issue_page(std::string_view url, std::string* problem = nullptr);

// A link to an issue as a browser shows it: the page (read_issue_page) followed by a comment's anchor, a
// query or a closing '/', which are passed over.
std::optional<IssuePage> read_issue_link(std::string_view url, std::string* problem = nullptr);

// What is wrong with `url` as a page of issue `number` (read_issue_page's rules, and the number), or "" when
// nothing is. Any host is taken (the store does not know which GitHub a record came from), and OWNER/NAME
// need not be the record's repository: the issues of a renamed repository keep the page they were stored
// with, which GitHub redirects. Records come from outside: this keeps scripts, other kinds of page and
// other issues' numbers out of every listing and report that shows the URL.
std::string issue_url_problem(std::string_view url, int64_t number);

// Throws faultline::Error "WHERE: FIELD 'URL' is not the page of issue NUMBER (PROBLEM)".
void require_issue_url(std::string_view url, int64_t number, const std::string& where, const char* field);

}  // namespace faultline::common
