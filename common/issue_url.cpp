#include "common/issue_url.hpp"

#include <string>

#include "common/error.hpp"
#include "common/repository_name.hpp"

namespace faultline::common {

std::string issue_url(std::string_view repo, int64_t number) {
  std::string url = "https://github.com/";
  url.append(repo).append("/issues/").append(std::to_string(number));
  return url;
}

namespace {

bool is_host_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

// What is wrong with `url` as an issue page, or "" with `page` filled in.
std::string issue_page_problem(std::string_view url, IssuePage& page) {
  std::string_view rest = url;
  if (rest.substr(0, 8) == "https://")
    rest.remove_prefix(8);
  else if (rest.substr(0, 7) == "http://")
    rest.remove_prefix(7);
  else
    return "it does not start with https:// or http://";
  const size_t slash = rest.find('/');
  const std::string_view host = rest.substr(0, slash);
  if (host.find('@') != std::string_view::npos) return "it has a user name or password before its host";
  const std::string_view name = host.substr(0, host.find(':'));
  if (name.empty()) return "it has no host";
  for (char c : name) {
    if (!is_host_char(c)) return "its host may hold only letters, digits, '.' and '-'";
  }
  if (name.size() < host.size()) {
    const std::string_view port = host.substr(name.size() + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
      return "its port is not a number";
    if (std::stoi(std::string(port)) > 65535) return "its port is past 65535";
  }
  if (slash == std::string_view::npos) return "it has no path";
  // OWNER/NAME/KIND/NUMBER: the repository is what precedes the last two slashes.
  const std::string_view path = rest.substr(slash + 1);
  const size_t number_at = path.rfind('/');
  const size_t kind_at = number_at == std::string_view::npos || number_at == 0
                             ? std::string_view::npos
                             : path.rfind('/', number_at - 1);
  if (kind_at == std::string_view::npos) return "its path is not OWNER/NAME/issues/NUMBER";
  const std::string_view kind = path.substr(kind_at + 1, number_at - kind_at - 1);
  if (kind != "issues" && kind != "pull") return "its path is not OWNER/NAME/issues/NUMBER (or /pull/NUMBER)";
  const std::string_view number = path.substr(number_at + 1);
  if (number.empty() || number.find_first_not_of("0123456789") != std::string_view::npos)
    return "its path does not end in a number";
  if (std::string problem = repository_name_problem(path.substr(0, kind_at)); !problem.empty()) {
    // Appended rather than joined with `+`: GCC 12 warns wrongly (-Wrestrict) on "literal" + std::string.
    return std::string("its path does not begin with a repository's OWNER/NAME (")
        .append(problem)
        .append(")");
  }
  page = {host, path.substr(0, kind_at), kind == "pull", number};
  return "";
}

}  // namespace

std::optional<IssuePage> read_issue_page(std::string_view url, std::string* problem) {
  IssuePage page;
  std::string found = issue_page_problem(url, page);
  if (problem) *problem = found;
  if (!found.empty()) return std::nullopt;
  return page;
}

std::string issue_url_problem(std::string_view url, int64_t number) {
  std::string problem;
  const std::optional<IssuePage> page = read_issue_page(url, &problem);
  if (page && page->number != std::to_string(number))
    problem.append("it is the page of issue ")
        .append(page->number)
        .append(", not of ")
        .append(std::to_string(number));
  return problem;
}

void require_issue_url(std::string_view url, int64_t number, const std::string& where, const char* field) {
  if (std::string problem = issue_url_problem(url, number); !problem.empty()) {
    throw Error(where + ": " + field + " '" + std::string(url) + "' is not the page of issue " +
                std::to_string(number) + " (" + problem + ")");
  }
}

std::optional<IssuePage> read_issue_link(std::string_view url, std::string* problem) {
  std::string_view page = url.substr(0, url.find_first_of("?#"));
  if (page.size() > 1 && page.back() == '/') page.remove_suffix(1);
  return read_issue_page(page, problem);
}

}  // namespace faultline::common
