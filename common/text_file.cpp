#include "common/text_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace faultline::common {

std::string read_text_file(const std::string& path) {
  // A directory opens as a stream that reads nothing; that must not pass for an empty file.
  if (std::filesystem::is_directory(path)) throw Error(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw Error(path + ": cannot read the file");
  return buffer.str();
}

}  // namespace faultline::common
