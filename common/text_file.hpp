// Reading a whole file into memory, with the project's error when it cannot be read.
#pragma once

#include <string>

namespace faultline::common {

// Throws faultline::Error naming the path when the file cannot be opened or read.
std::string read_text_file(const std::string& path);

}  // namespace faultline::common
