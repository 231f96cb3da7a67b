// The one exception type of faultline. Every library throws it with a message written for the user:
// what failed, where (file, line, URL, value) and what to do. cli/ catches it once and prints it.
#pragma once

#include <stdexcept>
#include <string>

namespace faultline {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace faultline
