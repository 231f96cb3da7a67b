// The argmax of a map: which key holds the largest value.
#pragma once

#include <utility>
#include <vector>

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

// Every key holding the largest value, in the map's order: a tie named rather than broken. Empty for an
// empty map.
template <typename Map>
std::vector<typename Map::key_type> keys_of_largest(const Map& map) {
  const auto largest = largest_entry(map).second;
  std::vector<typename Map::key_type> keys;
  for (const auto& [key, value] : map) {
    if (!(value < largest)) keys.push_back(key);
  }
  return keys;
}

}  // namespace faultline::common
