// Reads a command line against the verbs and options registered on the application before CLI11 parses
// it, so that a mistyped verb or option is reported as such (with the nearest known word) instead of as
// whatever requirement CLI11 checks first ("A subcommand is required", "--out is required").
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/repository_name.hpp"

namespace faultline::cli {

struct UnknownWord {
  std::string word;                    // as typed: "screan", "--formt"
  bool is_option = false;              // an option, else a verb
  std::optional<std::string> nearest;  // the known verb or option it is probably a typo of
};

struct CommandLineReading {
  const CLI::App* verb = nullptr;  // the last verb read (the application itself when none)
  std::string command;             // the verbs read so far: "faultline label export"
  std::optional<UnknownWord> unknown;
};

// `args` is argv without the program name.
CommandLineReading read_command_line(const CLI::App& app, const std::vector<std::string>& args);

// The number `text` is, if it is one number and nothing else (not NaN: every comparison with it is false,
// so a range would let it through).
inline std::optional<double> one_number(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || std::isnan(value)) return std::nullopt;
  return value;
}

// CLI::Range(lowest, highest) that refuses NaN and what is not a number at all as not a number. The help
// shows the range as CLI::Range does.
inline CLI::Validator number_in(double lowest, double highest) {
  const CLI::Range range(lowest, highest);
  return CLI::Validator(
      [range](std::string& text) {
        if (!one_number(text)) return "'" + text + "' is not a number";
        return range(text);
      },
      range.get_description());
}

// CLI::Range(lowest, highest) for a whole number: what is not one ("abc", "1.5", "") is said to be not a
// whole number, not out of a range it was never in. The help shows the range as CLI::Range does.
inline CLI::Validator whole_number_in(int64_t lowest, int64_t highest) {
  const CLI::Range range(lowest, highest);
  return CLI::Validator(
      [range](std::string& text) {
        int64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error == std::errc::invalid_argument || end != text.data() + text.size())
          return "'" + text + "' is not a whole number";
        return range(text);
      },
      range.get_description());
}

// An accuracy to label at: more than 0 (0 would be met by labeling everything) and at most 1.
inline CLI::Validator accuracy_to_label() {
  return CLI::Validator(
      [](std::string& text) {
        const std::optional<double> value = one_number(text);
        if (!value) return "'" + text + "' is not a number";
        return *value > 0 && *value <= 1 ? std::string() : "'" + text + "' is not more than 0 and at most 1";
      },
      "in (0 - 1]");
}

// For a seed (an unsigned 64-bit number): CLI11 turns "-1" into 2^64 - 1 and saturates what is too large,
// so two different words would give the same seed; only digits that fit are taken.
inline const CLI::Validator& unsigned_64() {
  static const CLI::Validator check(
      [](std::string& text) {
        uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        return text.empty() || error != std::errc() || end != text.data() + text.size()
                   ? "'" + text + "' is not a whole number from 0 to 18446744073709551615"
                   : std::string();
      },
      "");
  return check;
}

// For a name the user chooses (a sample's, an output file's): an empty one would silently mean the
// default (stdout, for export), or fail late.
inline const CLI::Validator& not_empty() {
  static const CLI::Validator check(
      [](std::string& text) {
        return text.empty() ? std::string("an empty name names nothing") : std::string();
      },
      "");
  return check;
}

// For an issue named on the command line (OWNER/NAME#NUMBER): a malformed one is a usage error.
inline const CLI::Validator& issue_key() {
  static const CLI::Validator check(
      [](std::string& text) {
        try {
          common::parse_issue_key(text);
          return std::string();
        } catch (const Error& e) {
          // CLI11 names the argument ("issue: "): the message's own "issue 'KEY'" would say it twice.
          const std::string message = e.what();
          return message.rfind("issue '", 0) == 0 ? message.substr(6) : message;
        }
      },
      "");
  return check;
}

// For a repository named on the command line (OWNER/NAME, by GitHub's naming rules).
inline const CLI::Validator& repository_name() {
  static const CLI::Validator check(
      [](std::string& text) {
        const std::string problem = common::repository_name_problem(text);
        return problem.empty() ? problem : "'" + text + "' is not of the form OWNER/NAME (" + problem + ")";
      },
      "");
  return check;
}

// For a moment as GitHub writes one, YYYY-MM-DDTHH:MM:SSZ (it goes into a request's query as it is).
inline const CLI::Validator& utc_moment() {
  static const CLI::Validator check(
      [](std::string& text) {
        return common::timestamp_form(text) == common::TimestampForm::kMoment
                   ? std::string()
                   : "'" + text + "' is not a UTC time of the form YYYY-MM-DDTHH:MM:SSZ";
      },
      "");
  return check;
}

// "unknown verb 'screan' for 'faultline'; did you mean 'screen'?" (or the verbs there are, when none is
// near).
std::string unknown_word_message(const CommandLineReading& reading);

}  // namespace faultline::cli
