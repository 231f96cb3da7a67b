// Reads a command line against the verbs and options registered on the application before CLI11 parses
// it, so that a mistyped verb or option is reported as such (with the nearest known word) instead of as
// whatever requirement CLI11 checks first ("A subcommand is required", "--out is required").
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

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

// For an option that takes a number in a range, beside CLI::Range: the range lets "nan" through, as every
// comparison with NaN is false.
inline const CLI::Validator& not_nan() {
  static const CLI::Validator check(
      [](std::string& text) {
        return std::isnan(std::strtod(text.c_str(), nullptr)) ? "'" + text + "' is not a number"
                                                              : std::string();
      },
      "");
  return check;
}

// "unknown verb 'screan' for 'faultline'; did you mean 'screen'?" (or the verbs there are, when none is
// near).
std::string unknown_word_message(const CommandLineReading& reading);

}  // namespace faultline::cli
