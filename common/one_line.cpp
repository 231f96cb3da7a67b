#include "common/one_line.hpp"

#include <cstdio>

#include "common/utf8.hpp"

namespace faultline::common {

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c >= 0x80) {
      // The sequence its lead byte announces, kept whole when it is well-formed.
      if (const std::optional<Utf8Character> character = first_utf8_character(text.substr(i))) {
        // The line and paragraph separators too: some terminals and viewers break the line there.
        if (is_hidden_control(character->code) || character->code == 0x2028 || character->code == 0x2029) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(character->code));
          out += escaped;
        } else {
          out.append(text.substr(i, character->length));
        }
        i += character->length;
        continue;
      }
    }
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
    ++i;
  }
  return out;
}

std::string one_line_cut(std::string_view text, size_t limit) {
  if (text.size() <= limit) return one_line(text);
  return one_line(text.substr(0, utf8_prefix_length(text, limit))) + "...";
}

}  // namespace faultline::common
