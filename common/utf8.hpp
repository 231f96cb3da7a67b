// UTF-8 validation: JSON output (and so --json, exports and the report) can only carry valid UTF-8, so
// text from outside is checked where it enters.
#pragma once

#include <cstddef>
#include <string_view>

namespace faultline::common {

// The length of the sequence a UTF-8 lead byte announces: 1 for ASCII, 2 to 4, or 0 for a byte that cannot
// lead one (a continuation byte, 0xf8 and above).
size_t utf8_sequence_length(unsigned char lead);

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool is_valid_utf8(std::string_view text);

// The length of `text`'s longest prefix of at most `limit` bytes that does not end inside a UTF-8 sequence:
// a cut there splits no character. Only the bytes at the cut are looked at (at most three continuation
// bytes step back), so text that is not UTF-8 is cut at `limit` or up to three bytes before it.
size_t utf8_prefix_length(std::string_view text, size_t limit);

}  // namespace faultline::common
