#include "cli/command_line.hpp"

#include "common/edit_distance.hpp"
#include "common/joined.hpp"

namespace faultline::cli {

namespace {

std::vector<std::string> verb_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

// Options of `app` and of the verbs above it (the application falls through to its parents' options).
std::vector<const CLI::Option*> options_in_reach(const CLI::App& app) {
  std::vector<const CLI::Option*> options;
  for (const CLI::App* a = &app; a; a = a->get_parent()) {
    for (const auto* o : a->get_options()) options.push_back(o);
  }
  return options;
}

const CLI::App* find_verb(const CLI::App& app, const std::string& word) {
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->check_name(word)) return sub;
  }
  return nullptr;
}

bool has_positionals(const CLI::App& app) {
  for (const auto* o : app.get_options()) {
    if (o->get_positional()) return true;
  }
  return false;
}

}  // namespace

CommandLineReading read_command_line(const CLI::App& app, const std::vector<std::string>& args) {
  CommandLineReading reading{&app, app.get_name(), std::nullopt};
  const CLI::App*& current = reading.verb;
  bool next_is_value = false;
  for (const auto& arg : args) {
    if (arg == "--") break;  // everything after it is positional
    if (next_is_value) {
      next_is_value = false;
      continue;
    }
    if (arg.rfind("--", 0) == 0) {
      auto equals = arg.find('=');
      std::string name = arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
      const CLI::Option* found = nullptr;
      std::vector<std::string> known;
      for (const auto* o : options_in_reach(*current)) {
        for (const auto& lname : o->get_lnames()) {
          known.push_back("--" + lname);
          if (lname == name && !found) found = o;
        }
      }
      if (!found) {
        reading.unknown = UnknownWord{arg.substr(0, equals), true, common::nearest_word("--" + name, known)};
        return reading;
      }
      next_is_value = equals == std::string::npos && found->get_items_expected_max() > 0;
    } else if (arg.size() > 1 && arg[0] == '-') {
      continue;  // short options and negative numbers: CLI11 judges them
    } else if (const auto* verb = find_verb(*current, arg)) {
      current = verb;
      reading.command += " " + verb->get_name();
    } else if (!has_positionals(*current) && !verb_names(*current).empty()) {
      reading.unknown = UnknownWord{arg, false, common::nearest_word(arg, verb_names(*current))};
      return reading;
    }
  }
  return reading;
}

std::string unknown_word_message(const CommandLineReading& reading) {
  const auto& u = *reading.unknown;
  std::string text = std::string("unknown ") + (u.is_option ? "option" : "verb") + " '" + u.word + "' for '" +
                     reading.command + "'";
  if (u.nearest) return text + "; did you mean '" + *u.nearest + "'?";
  if (u.is_option) return text + " (see '" + reading.command + " --help')";
  return text + "; the verbs are: " + common::joined(verb_names(*reading.verb));
}

}  // namespace faultline::cli
