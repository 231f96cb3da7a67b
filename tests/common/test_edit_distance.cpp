#include <gtest/gtest.h>

#include "common/edit_distance.hpp"

using faultline::common::edit_distance;
using faultline::common::nearest_word;

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndNeighbourSwaps) {
  EXPECT_EQ(edit_distance("screen", "screen"), 0u);
  EXPECT_EQ(edit_distance("screan", "screen"), 1u);   // one substitution
  EXPECT_EQ(edit_distance("exprt", "export"), 1u);    // one insertion
  EXPECT_EQ(edit_distance("lsit", "list"), 1u);       // one swap of neighbours
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);  // k→s, e→i, +g
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(EditDistance, SuggestsTheNearestWordOnlyWhenItIsCloseEnough) {
  std::vector<std::string> verbs{"import", "export", "screen", "sample", "suite"};
  EXPECT_EQ(nearest_word("screan", verbs), "screen");
  EXPECT_EQ(nearest_word("--formt", {"--format", "--out", "--db"}), "--format");
  // "sampel" is 1 swap from "sample" and 3 edits from the rest.
  EXPECT_EQ(nearest_word("sampel", verbs), "sample");
  // Nothing is within 2 edits of "zzzzzz"; "ab" → "db" is 1 edit but half of the word.
  EXPECT_EQ(nearest_word("zzzzzz", verbs), std::nullopt);
  EXPECT_EQ(nearest_word("ab", {"db"}), std::nullopt);
}
