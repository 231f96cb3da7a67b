#include "common/repository_name.hpp"

#include <cctype>
#include <charconv>

#include "common/ascii_case.hpp"
#include "common/error.hpp"

namespace faultline::common {

namespace {

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

std::string owner_problem(std::string_view owner) {
  if (owner.empty()) return "the owner is empty";
  if (owner.size() > 39) return "the owner is longer than 39 characters";
  if (owner.front() == '-' || owner.back() == '-') return "the owner starts or ends with '-'";
  for (size_t i = 0; i < owner.size(); ++i) {
    if (owner[i] == '-') {
      if (owner[i + 1] == '-') return "the owner has two '-' in a row";
    } else if (!is_alnum(owner[i])) {
      return "the owner may hold only letters, digits and '-'";
    }
  }
  return "";
}

std::string repository_problem(std::string_view repo) {
  if (repo.empty()) return "the repository name is empty";
  if (repo.size() > 100) return "the repository name is longer than 100 characters";
  if (repo == "." || repo == "..") return "the repository name cannot be '.' or '..'";
  for (char c : repo) {
    if (!is_alnum(c) && c != '.' && c != '_' && c != '-')
      return "the repository name may hold only letters, digits, '.', '_' and '-'";
  }
  return "";
}

}  // namespace

std::string repository_name_problem(std::string_view name) {
  auto slash = name.find('/');
  if (slash == std::string_view::npos) return "there is no '/'";
  if (std::string problem = owner_problem(name.substr(0, slash)); !problem.empty()) return problem;
  return repository_problem(name.substr(slash + 1));
}

std::string folded_repository_name(std::string_view name) { return ascii_lowercase(name); }

bool same_repository_name(std::string_view a, std::string_view b) {
  return folded_repository_name(a) == folded_repository_name(b);
}

void require_repository_name(std::string_view name, const std::string& where) {
  std::string problem = repository_name_problem(name);
  if (!problem.empty()) {
    throw Error(where + ": repo '" + std::string(name) + "' is not of the form OWNER/NAME (" + problem + ")");
  }
}

std::optional<int64_t> issue_number_of(std::string_view text) {
  int64_t number = 0;
  const char* last = text.data() + text.size();
  auto [end, error] = std::from_chars(text.data(), last, number);
  if (text.empty() || error != std::errc() || end != last || number <= 0) return std::nullopt;
  return number;
}

IssueKey parse_issue_key(const std::string& key) {
  auto hash = key.rfind('#');
  if (hash == std::string::npos)
    throw Error("issue '" + key + "': expected OWNER/NAME#NUMBER, e.g. NVIDIA/cutlass#1270");
  IssueKey parsed{key.substr(0, hash), 0};
  require_repository_name(parsed.repo, "issue '" + key + "'");
  const auto number = issue_number_of(std::string_view(key).substr(hash + 1));
  if (!number) throw Error("issue '" + key + "': the part after '#' must be a positive issue number");
  parsed.number = *number;
  return parsed;
}

}  // namespace faultline::common
