// JSON from outside is read as any reader would read it, or refused with a faultline::Error naming where it
// came from.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/strict_json.hpp"

using faultline::common::parse_json_strictly;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_json_strictly(text, "in.json");
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(StrictJson, AKeyTwiceInOneObjectIsRefusedAtAnyDepth) {
  EXPECT_EQ(parse_json_strictly(R"({"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]})", "in.json")["c"][1]["a"], 4);
  EXPECT_EQ(error_of(R"({"a":1,"a":1})"), "in.json: the key 'a' appears twice in one object");
  EXPECT_EQ(error_of(R"([{"b":{"a":1,"a":2}}])"), "in.json: the key 'a' appears twice in one object");
  // Keys are compared as read, escapes decoded: \u0061 is a.
  EXPECT_EQ(error_of(R"({"a":1,"\u0061":2})"), "in.json: the key 'a' appears twice in one object");
}

TEST(StrictJson, WhatIsNotJsonIsAFaultlineErrorWhateverTheParserThrows) {
  EXPECT_EQ(error_of(R"({"a":1})"), "");
  EXPECT_EQ(error_of("{\"a\":").rfind("in.json: not valid JSON ([json.exception.parse_error.101]", 0), 0u);
  // An overflowing number is the parser's out_of_range, not a parse_error.
  EXPECT_EQ(error_of(R"({"number":1e999})"),
            "in.json: not valid JSON ([json.exception.out_of_range.406] number overflow parsing '1e999')");
  EXPECT_EQ(error_of("").rfind("in.json: not valid JSON (", 0), 0u);
}

// A record of a million small objects is read (nlohmann's callback parser, used before, rescanned a parent
// at the end of each child object: a million objects took hours, past this test's time limit).
TEST(StrictJson, ManySmallObjectsAreRead) {
  std::string many = "{\"x\":[";
  for (int i = 0; i < 1000000; ++i) many += i ? ",{}" : "{}";
  many += "]}";
  EXPECT_EQ(parse_json_strictly(many, "in.json")["x"].size(), 1000000u);
}

// Nesting 64 deep is read; deeper is refused by the first reading, before the parse that builds values:
// 30 million nested brackets made that parse take gigabytes.
TEST(StrictJson, NestingPast64LevelsIsRefusedBeforeAnythingIsBuilt) {
  auto nested = [](size_t levels) {
    std::string text;
    for (size_t i = 0; i < levels; ++i) text += i % 2 ? "{\"k\":" : "[";
    text += "0";
    for (size_t i = levels; i-- > 0;) text += i % 2 ? "}" : "]";
    return text;
  };
  EXPECT_EQ(error_of(nested(64)), "");
  EXPECT_EQ(error_of(nested(65)), "in.json: not valid JSON (nested more than 64 levels deep)");
  EXPECT_EQ(error_of(std::string(10000000, '[') + std::string(10000000, ']')),
            "in.json: not valid JSON (nested more than 64 levels deep)");
}
