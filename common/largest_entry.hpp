// The argmax of a map: which key holds the largest value.
#pragma once

#include <utility>

namespace faultline::common {

// The entry with the largest value; among equal values the first in the map's order, so a std::map breaks
// ties by the smaller key and the answer never depends on hashing. An empty map gives a value-initialized
// pair (empty key, zero value).
template <typename Map>
std::pair<typename Map::key_type, typename Map::mapped_type> largest_entry(const Map& map) {
  auto best = map.begin();
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (best->second < it->second) best = it;
  }
  if (best == map.end()) return {};
  return {best->first, best->second};
}

}  // namespace faultline::common
