// Reading a file, whole or line by line, with the project's error when it cannot be read.
#pragma once

#include <functional>
#include <string>

namespace faultline::common {

// Throws faultline::Error naming the path when the file cannot be opened or read.
std::string read_text_file(const std::string& path);

// Calls `line` with each line (without its '\n') and its 1-based number, holding one line in memory at a
// time; the same errors as read_text_file.
void for_each_line(const std::string& path, const std::function<void(const std::string&, int)>& line);

}  // namespace faultline::common
