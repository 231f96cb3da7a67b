#include "common/markup_escape.hpp"

#include "common/utf8.hpp"

namespace faultline::common {

std::string escape_markup(const std::string& text, Quotes quotes) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      // A well-formed sequence is kept whole unless it is hidden; a stray byte (text another program wrote
      // into the store) becomes U+FFFD, the replacement character, so the page stays UTF-8.
      if (const auto character = first_utf8_character(std::string_view(text).substr(i))) {
        // U+FFFE and U+FFFF are well-formed but not characters XML allows.
        const bool not_xml = character->code == 0xFFFE || character->code == 0xFFFF;
        if (!is_hidden_control(character->code) && !not_xml) out.append(text, i, character->length);
        i += character->length - 1;
      } else {
        out += "\xEF\xBF\xBD";
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += quotes == Quotes::kEscaped ? "&quot;" : "\"";
        break;
      case '\'':
        out += quotes == Quotes::kEscaped ? "&#39;" : "'";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

std::string markdown_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|' || c == '\\') out += '\\';
    out += c == '\n' || c == '\r' ? ' ' : c;
  }
  return escape_markup(out, Quotes::kKept);
}

}  // namespace faultline::common
