// ASCII case folding, for names compared without regard to case (GitHub's, raters').
#pragma once

#include <string>
#include <string_view>

namespace faultline::common {

// `text` with A-Z lowered; every other byte (UTF-8 sequences included) as it is.
inline std::string ascii_lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace faultline::common
