// A sink for text handed on in pieces, in order: what a writer of a large output gives its producer, so
// that the whole never has to be held at once.
#pragma once

#include <functional>
#include <string_view>

namespace faultline::common {

using PieceWriter = std::function<void(std::string_view)>;

}  // namespace faultline::common
