// GitHub repository names ("OWNER/NAME") and issue keys ("OWNER/NAME#NUMBER"), checked by GitHub's own
// rules so that a name GitHub would refuse is rejected where it enters, not at the first API call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace faultline::common {

// What is wrong with `name` as OWNER/NAME, or "" when GitHub would accept it. Owner: letters, digits and
// single hyphens, 1-39 characters, no hyphen first or last. Repository: letters, digits, '.', '_', '-',
// 1-100 characters, not "." or "..".
std::string repository_name_problem(std::string_view name);
inline bool is_repository_name(std::string_view name) { return repository_name_problem(name).empty(); }

// Whether two names name the same repository: GitHub ignores case in them (NVIDIA/cutlass is
// nvidia/cutlass), and its names are ASCII.
bool same_repository_name(std::string_view a, std::string_view b);
// `name` with A-Z lowered: equal for names that name the same repository, for a set or a map of them.
std::string folded_repository_name(std::string_view name);

// Throws faultline::Error "WHERE: repo 'NAME' is not of the form OWNER/NAME (PROBLEM)".
void require_repository_name(std::string_view name, const std::string& where);

struct IssueKey {
  std::string repo;
  int64_t number = 0;
};
// The issue number `text` is, all of it: decimal digits making a number from 1 to 2^63 - 1 (no sign, no
// spaces); nullopt otherwise.
std::optional<int64_t> issue_number_of(std::string_view text);

// Splits "OWNER/NAME#NUMBER" into a checked repository name and a positive number; throws faultline::Error
// naming the key otherwise.
IssueKey parse_issue_key(const std::string& key);

}  // namespace faultline::common
