// UTF-8 validation: JSON output (and so --json, exports and the report) can only carry valid UTF-8, so
// text from outside is checked where it enters.
#pragma once

#include <string_view>

namespace faultline::common {

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool is_valid_utf8(std::string_view text);

}  // namespace faultline::common
