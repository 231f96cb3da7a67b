// The one exception type of faultline. Every library throws it with a message written for the user:
// what failed, where (file, line, URL, value) and what to do. cli/ catches it once and prints it.
#pragma once

#include <stdexcept>
#include <string>

#include "common/one_line.hpp"

namespace faultline {

class Error : public std::runtime_error {
 public:
  // Messages quote text from outside: they are kept to one printable line (common::one_line), so that a
  // NUL does not cut one short and a newline or an escape sequence does not reach the terminal.
  explicit Error(const std::string& message) : std::runtime_error(common::one_line(message)) {}
};

}  // namespace faultline
