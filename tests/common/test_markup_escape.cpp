#include <gtest/gtest.h>

#include "common/markup_escape.hpp"

namespace common = faultline::common;

TEST(MarkupEscape, MarkupCharactersBecomeEntitiesAndControlsAreDropped) {
  EXPECT_EQ(common::escape_markup("<a href=\"x\">Tom's & Jerry's</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Jerry&#39;s&lt;/a&gt;");
  EXPECT_EQ(common::escape_markup("a\x01\x1b[31mb\tc\nd"), "a[31mb\tc\nd");
}

// "\u202e" (RIGHT-TO-LEFT OVERRIDE, E2 80 AE) would show "evil crash" reversed; the other embeddings and
// overrides (U+202A to U+202D), the isolates (U+2066 to U+2069, E2 81 A6 to A9), the marks (U+200E, U+200F:
// E2 80 8E, 8F; U+061C: D8 9C) and the C1 controls (U+0080 to U+009F: C2 80 to C2 9F; U+009B is a
// terminal's CSI) go too, as one_line writes them out. Neighbours of those code points stay: U+2029
// (E2 80 A9), U+202F (E2 80 AF), U+2065, U+206A, U+200D (E2 80 8D, the joiner in emoji), U+061B (D8 9B),
// U+00A0 (C2 A0) and the en dash U+2013 (E2 80 93).
TEST(MarkupEscape, HiddenControlsAreDroppedAndTheirNeighboursKept) {
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
  EXPECT_EQ(common::escape_markup("a\xE2\x80\x8E"
                                  "b\xE2\x80\x8F"
                                  "c\xD8\x9C"
                                  "d"),
            "abcd");
  EXPECT_EQ(common::escape_markup("a\xC2\x80"
                                  "b\xC2\x85"
                                  "c\xC2\x9B"
                                  "[2Jd\xC2\x9F"),
            "abc[2Jd");
  const std::string kept =
      "\xE2\x80\xA9|\xE2\x80\xAF|\xE2\x81\xA5|\xE2\x81\xAA|\xE2\x80\x8D|\xD8\x9B|\xC2\xA0|\xE2\x80\x93";
  EXPECT_EQ(common::escape_markup(kept), kept);
  // U+FFFE and U+FFFF, which XML refuses, are dropped.
  EXPECT_EQ(common::escape_markup("a\xEF\xBF\xBE"
                                  "b\xEF\xBF\xBF"
                                  "c"),
            "abc");
  // A byte that starts no well-formed sequence (a lead byte cut short at the end, a stray 0xFF) becomes
  // U+FFFD (EF BF BD), one per byte, so the page stays UTF-8; well-formed text around it is kept.
  EXPECT_EQ(common::escape_markup("a\xE2\x80"), "a\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(common::escape_markup("\xFF\xC3\xA9"), "\xEF\xBF\xBD\xC3\xA9");
}
