#include "common/text_file.hpp"

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

}  // namespace

void for_each_line(const std::string& path, const std::function<void(const std::string&, int)>& line) {
  std::ifstream in = open_file(path);
  std::string text;
  int number = 0;
  while (std::getline(in, text)) line(text, ++number);
  if (in.bad()) throw Error(path + ": cannot read the file");
}

std::string read_at_most(std::istream& in, size_t most, const std::string& where) {
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > most) {
      throw Error(where + ": more than " + std::to_string(most >> 20) +
                  " MiB; refused (one record is expected)");
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
