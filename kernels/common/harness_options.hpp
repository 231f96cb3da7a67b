// Optional "--name value" inputs of a harness. The runner passes none, so every harness runs the case its
// manifest documents; the oracle tests pass them to remove a bug's trigger and show that the harness's
// verdict can come out the other way.
#pragma once

#include <string>

namespace faultline::repro {

// The value after `--<name>`, or `fallback` when the option is absent.
inline std::string string_option(int argc, char** argv, const char* name, const std::string& fallback) {
  const std::string flag = std::string("--") + name;
  for (int i = 1; i + 1 < argc; ++i) {
    if (flag == argv[i]) return argv[i + 1];
  }
  return fallback;
}

// A malformed number throws, which ends the harness with a harness error rather than a verdict.
inline int int_option(int argc, char** argv, const char* name, int fallback) {
  const std::string text = string_option(argc, argv, name, "");
  return text.empty() ? fallback : std::stoi(text);
}

}  // namespace faultline::repro
