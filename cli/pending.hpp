// A verb whose library is not built yet: it says so and exits 2 instead of pretending to work.
#pragma once

#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

namespace faultline::cli {

inline void add_pending(CLI::App& app, const std::string& name, const std::string& description, int issue) {
  auto* sub = app.add_subcommand(name, description + "\n(not built yet: see issue " + std::to_string(issue) + ")");
  sub->allow_extras();
  sub->callback([name, issue] {
    std::cerr << "faultline " << name << ": not built yet (issue " << issue << ")\n";
    throw CLI::RuntimeError(2);
  });
}

}  // namespace faultline::cli
