// Lists of names in messages and tables ("a, b, c"), written one way everywhere.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace faultline::common {

// The items in order with `separator` between them; "" for none.
inline std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

}  // namespace faultline::common
