// Escaping text for HTML and XML output (the report's page, the suite's JUnit file).
#pragma once

#include <string>

namespace faultline::common {

// & < > " ' become entities; control characters other than tab and newline, invalid in XML, are dropped.
inline std::string escape_markup(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
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
