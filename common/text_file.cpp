#include "common/text_file.hpp"

#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace faultline::common {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace faultline::common
