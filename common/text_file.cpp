#include "common/text_file.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace faultline::common {

namespace {

std::ifstream open_file(const std::string& path) {
  // A directory opens as a stream that reads nothing; that must not pass for an empty file.
  if (std::filesystem::is_directory(path)) throw Error(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the file");
  return in;
}

// "64 MiB" for a whole number of MiB, else the bytes.
std::string byte_size(size_t bytes) {
  if (bytes >= (size_t{1} << 20) && bytes % (size_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

void for_each_line(const std::string& path, size_t longest,
                   const std::function<void(const std::string&, int)>& line) {
  std::ifstream in = open_file(path);
  std::string text;
  int number = 0;
  // std::getline would read a line whole before its length could be checked: read in chunks instead.
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    const char* from = chunk;
    const char* const end = chunk + in.gcount();
    while (from < end) {
      const auto* newline =
          static_cast<const char*>(std::memchr(from, '\n', static_cast<size_t>(end - from)));
      const char* const stop = newline ? newline : end;
      if (text.size() + static_cast<size_t>(stop - from) > longest) {
        throw Error(path + ":" + std::to_string(number + 1) + ": a line of more than " + byte_size(longest) +
                    "; refused");
      }
      text.append(from, stop);
      if (!newline) break;
      line(text, ++number);
      text.clear();
      from = newline + 1;
    }
  }
  if (in.bad()) throw Error(path + ": cannot read the file");
  if (!text.empty()) line(text, ++number);  // the last line, without a '\n' after it
}

std::string read_at_most(std::istream& in, size_t most, const std::string& where) {
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > most) {
      throw Error(where + ": more than " + byte_size(most) + "; refused (one record is expected)");
    }
  }
  if (in.bad()) throw Error(where + ": cannot read it");
  return text;
}

std::string read_text_file_at_most(const std::string& path, size_t most) {
  std::ifstream in = open_file(path);
  return read_at_most(in, most, path);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in = open_file(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw Error(path + ": cannot read the file");
  return buffer.str();
}

}  // namespace faultline::common
