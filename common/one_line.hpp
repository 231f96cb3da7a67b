// Text from outside (an issue's repository, a file's bytes, a command-line word) ends up in messages; a
// message is one line that a terminal shows as it is.
#pragma once

#include <string>
#include <string_view>

namespace faultline::common {

// `text` with newline, carriage return and tab written as \n, \r and \t, every other control character
// (NUL and ESC included) and every byte that is not part of well-formed UTF-8 as \xHH, the C1 controls and
// the bidirectional-text controls (U+202E, the right-to-left override, and its kin) and the line and
// paragraph separators (U+2028, U+2029) as \uHHHH; the rest as it is.
std::string one_line(std::string_view text);
// one_line of `text`'s first `limit` bytes, cut between characters, with "..." when it is longer: a name
// from outside quoted in a message (a JSON key may be as long as its line).
std::string one_line_cut(std::string_view text, size_t limit);

}  // namespace faultline::common
