#include <gtest/gtest.h>

#include "common/markup_escape.hpp"

namespace common = faultline::common;

TEST(MarkupEscape, MarkupCharactersBecomeEntitiesAndControlsAreDropped) {
  EXPECT_EQ(common::escape_markup("<a href=\"x\">Tom's & Jerry's</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Jerry&#39;s&lt;/a&gt;");
  EXPECT_EQ(common::escape_markup("a\x01\x1b[31mb\tc\nd"), "a[31mb\tc\nd");
}

// "\u202e" (RIGHT-TO-LEFT OVERRIDE, E2 80 AE) would show "evil crash" reversed; the isolates (U+2066 to
// U+2069, E2 81 A6 to E2 81 A9) and embeddings (U+202A to U+202D) go too. Neighbours of those code points
// stay: U+2029 (E2 80 A9, paragraph separator), U+202F (E2 80 AF, narrow no-break space), U+2065 and U+206A,
// and the en dash U+2013 (E2 80 93).
TEST(MarkupEscape, BidirectionalControlsAreDroppedAndTheirNeighboursKept) {
  EXPECT_EQ(common::escape_markup("title \xE2\x80\xAE"
                                  "evil crash"),
            "title evil crash");
  EXPECT_EQ(common::escape_markup("\xE2\x80\xAA"
                                  "a\xE2\x80\xAB"
                                  "b\xE2\x80\xAC"
                                  "c\xE2\x80\xAD"
                                  "d"),
            "abcd");
  EXPECT_EQ(common::escape_markup("\xE2\x81\xA6"
                                  "a\xE2\x81\xA7"
                                  "b\xE2\x81\xA8"
                                  "c\xE2\x81\xA9"),
            "abc");
  const std::string kept = "\xE2\x80\xA9|\xE2\x80\xAF|\xE2\x81\xA5|\xE2\x81\xAA|\xE2\x80\x93";
  EXPECT_EQ(common::escape_markup(kept), kept);
  // Cut short at the end of the text: two bytes of a sequence are not a control.
  EXPECT_EQ(common::escape_markup("a\xE2\x80"), "a\xE2\x80");
}
