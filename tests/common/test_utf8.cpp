#include <gtest/gtest.h>

#include <string>

#include "common/utf8.hpp"

using faultline::common::utf8_prefix_length;

// "é" is C3 A9, "€" is E2 82 AC, "𝄞" is F0 9D 84 9E: a cut inside one steps back to its lead byte.
TEST(Utf8, APrefixEndsBeforeASequenceItWouldSplit) {
  EXPECT_EQ(utf8_prefix_length("abc", 5), 3u);  // shorter than the limit: all of it
  EXPECT_EQ(utf8_prefix_length("abcdef", 4), 4u);
  EXPECT_EQ(utf8_prefix_length("ab\xC3\xA9", 3), 2u);         // inside é
  EXPECT_EQ(utf8_prefix_length("ab\xC3\xA9x", 4), 4u);        // just after é
  EXPECT_EQ(utf8_prefix_length("a\xE2\x82\xAC", 2), 1u);      // after €'s lead byte
  EXPECT_EQ(utf8_prefix_length("a\xE2\x82\xAC", 3), 1u);      // after its second byte
  EXPECT_EQ(utf8_prefix_length("a\xF0\x9D\x84\x9E", 4), 1u);  // after 𝄞's third byte: three steps back
  EXPECT_EQ(utf8_prefix_length("a\xF0\x9D\x84\x9E", 1), 1u);  // before 𝄞
  // Not UTF-8: a run of continuation bytes steps back three at most.
  EXPECT_EQ(utf8_prefix_length(std::string(8, '\x80'), 6), 3u);
}
