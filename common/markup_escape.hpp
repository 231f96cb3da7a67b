// Escaping text for HTML and XML output (the report's page, the suite's JUnit file) and Markdown tables.
#pragma once

#include <string>

namespace faultline::common {

// & < > " ' become entities; control characters other than tab and newline and U+FFFE, U+FFFF, invalid
// in XML, are dropped,
// and so are the well-formed characters that act on the text around them rather than show
// (is_hidden_control: a right-to-left override in an issue title would make its cell read otherwise than
// its text).
// With kKept, " and ' stay as they are (text, not an attribute: Markdown, whose readers see the source).
enum class Quotes { kEscaped, kKept };
std::string escape_markup(const std::string& text, Quotes quotes = Quotes::kEscaped);

// Text for a Markdown table cell: | and \ are escaped, line breaks (\n, \r) become spaces, & < > become
// entities (no raw HTML passes) and controls are dropped, as escape_markup does, quotes aside.
std::string markdown_escape(const std::string& text);

}  // namespace faultline::common
