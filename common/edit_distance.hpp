// How far apart two words are, for "did you mean …?" suggestions.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace faultline::common {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbouring
// characters each cost 1 ("screan" → "screen" is 1, "lsit" → "list" is 1).
inline size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The candidate nearest to `word`, when it is near enough to be a typo of it: at most 2 edits, and fewer
// than half of the word's characters (so "ab" does not suggest "db"). Ties go to the first candidate.
inline std::optional<std::string> nearest_word(const std::string& word,
                                               const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = 0;
  for (const auto& c : candidates) {
    size_t distance = edit_distance(word, c);
    if (distance > 2 || 2 * distance >= std::max(word.size(), c.size())) continue;
    if (!best || distance < best_distance) {
      best = c;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace faultline::common
