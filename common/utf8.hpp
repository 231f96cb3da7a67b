// UTF-8 validation: JSON output (and so --json, exports and the report) can only carry valid UTF-8, so
// text from outside is checked where it enters.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace faultline::common {

// The character that `text` begins with in well-formed UTF-8: its code point and its length in bytes;
// nothing when `text` is empty or does not begin with a well-formed sequence.
struct Utf8Character {
  char32_t code;
  size_t length;
};
std::optional<Utf8Character> first_utf8_character(std::string_view text);

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool is_valid_utf8(std::string_view text);

// Characters that are well-formed but act on a terminal or on the text around them rather than show: the
// C1 controls (U+009B is a terminal's CSI) and the marks, embeddings, overrides and isolates of
// bidirectional text, which can make a line read otherwise than its bytes do.
bool is_hidden_control(char32_t code);

// The length of `text`'s longest prefix of at most `limit` bytes that does not end inside a UTF-8 sequence:
// a cut there splits no character. Only the bytes at the cut are looked at (at most three continuation
// bytes step back), so text that is not UTF-8 is cut at `limit` or up to three bytes before it.
size_t utf8_prefix_length(std::string_view text, size_t limit);

}  // namespace faultline::common
