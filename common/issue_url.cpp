#include "common/issue_url.hpp"

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

bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x | 0x20);
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y | 0x20);
    if (x != y) return false;
  }
  return true;
}

}  // namespace

std::string issue_url_problem(std::string_view url, std::string_view repo, int64_t number) {
  std::string_view rest = url;
  if (rest.substr(0, 8) == "https://")
    rest.remove_prefix(8);
  else if (rest.substr(0, 7) == "http://")
    rest.remove_prefix(7);
  else
    return "it does not start with https:// or http://";
  const size_t slash = rest.find('/');
  const std::string_view host = rest.substr(0, slash);
  const std::string_view name = host.substr(0, host.find(':'));
  if (name.empty()) return "it has no host";
  for (char c : name) {
    if (!is_host_char(c)) return "its host may hold only letters, digits, '.' and '-'";
  }
  if (name.size() < host.size()) {
    const std::string_view port = host.substr(name.size() + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
      return "its port is not a number";
  }
  if (slash == std::string_view::npos) return "it has no path";
  const std::string_view path = rest.substr(slash + 1);
  // Appended rather than joined with `+`: GCC 12 warns wrongly (-Wrestrict) on "literal" + std::string.
  const std::string n = std::to_string(number);
  for (std::string_view kind : {"/issues/", "/pull/"}) {
    if (path.size() == repo.size() + kind.size() + n.size() &&
        same_ignoring_case(path.substr(0, repo.size()), repo) &&
        path.substr(repo.size(), kind.size()) == kind && path.substr(repo.size() + kind.size()) == n)
      return "";
  }
  std::string problem = "its path is not ";
  problem.append(repo).append("/issues/").append(n).append(" (or /pull/").append(n).append(")");
  return problem;
}

}  // namespace faultline::common
