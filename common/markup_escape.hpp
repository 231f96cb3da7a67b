// Escaping text for HTML and XML output (the report's page, the suite's JUnit file).
#pragma once

#include <string>

namespace faultline::common {

// Whether `text` has, at `i`, a Unicode bidirectional embedding, override or isolate (U+202A to U+202E,
// U+2066 to U+2069) in UTF-8: in issue text from the internet it can make what a page shows read otherwise
// than its characters (a right-to-left override reverses what follows it).
inline bool bidi_control_at(const std::string& text, size_t i) {
  if (i + 2 >= text.size() || static_cast<unsigned char>(text[i]) != 0xE2) return false;
  const auto second = static_cast<unsigned char>(text[i + 1]),
             third = static_cast<unsigned char>(text[i + 2]);
  return (second == 0x80 && third >= 0xAA && third <= 0xAE) ||
         (second == 0x81 && third >= 0xA6 && third <= 0xA9);
}

// & < > " ' become entities; control characters other than tab and newline, invalid in XML, are dropped, and
// so are the bidirectional controls (bidi_control_at).
inline std::string escape_markup(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (bidi_control_at(text, i)) {
      i += 2;
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
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

}  // namespace faultline::common
