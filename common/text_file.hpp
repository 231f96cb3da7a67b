// Reading a file, whole or line by line, with the project's error when it cannot be read.
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <string>

namespace faultline::common {

// Throws faultline::Error naming the path when the file cannot be opened or read.
std::string read_text_file(const std::string& path);

// All of `in` (stdin, a pipe, a device, a file), up to `most` bytes: more is a faultline::Error naming
// `where`, so that an endless or huge input is refused instead of filling the memory.
std::string read_at_most(std::istream& in, size_t most, const std::string& where);

// read_at_most of the file (or device, pipe) at `path`, with read_text_file's errors.
std::string read_text_file_at_most(const std::string& path, size_t most);

// Calls `line` with each line (without its '\n') and its 1-based number, holding one line in memory at a
// time; the same errors as read_text_file. A line of more than `longest` bytes is a faultline::Error naming
// the path and line, raised once that many bytes of it are read, so that one huge line cannot fill the
// memory.
void for_each_line(const std::string& path, size_t longest,
                   const std::function<void(const std::string&, int)>& line);

}  // namespace faultline::common
