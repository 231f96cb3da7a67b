// The token pool's choice of token and its waits, and where the tokens come from.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "miner/token_pool.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::miner;

TEST(TokenPool, PrefersUnusedTokensThenTheMostRemaining) {
  TokenPool pool({"a", "b", "c"});
  EXPECT_EQ(pool.pick(0), 0u);
  pool.observe(0, {49, 3600});
  EXPECT_EQ(pool.pick(0), 1u);  // never used: counts as having the most
  pool.observe(1, {70, 3600});
  pool.observe(2, {10, 3600});
  EXPECT_EQ(pool.pick(0), 1u);
  pool.observe(1, {5, 3600});
  EXPECT_EQ(pool.pick(0), 0u);
}

TEST(TokenPool, WaitsOnlyWhenEveryTokenIsSpentAndThenForTheEarliestReset) {
  TokenPool pool({"a", "b"});
  pool.observe(0, {0, 500});                          // resets at 501 with the margin
  EXPECT_EQ(pool.seconds_until_available(100), 0.0);  // b is unused
  pool.observe(1, {0, 300});
  EXPECT_EQ(pool.seconds_until_available(100), 201.0);
  EXPECT_EQ(pool.pick(302), 1u);  // b's reset has passed: fresh again
  EXPECT_EQ(pool.seconds_until_available(302), 0.0);
}

TEST(TokenPool, DroppedTokensAreNeverPicked) {
  TokenPool pool({"a", "b"});
  pool.drop(0);
  EXPECT_EQ(pool.pick(0), 1u);
  EXPECT_EQ(pool.usable(), 1u);
  pool.drop(1);
  EXPECT_FALSE(pool.pick(0));
}

TEST(TokenPool, WithoutTokensHasOneAnonymousSlot) {
  TokenPool pool({});
  ASSERT_EQ(pool.size(), 1u);
  EXPECT_EQ(pool.token(0), "");
}

TEST(TokenList, SplitsOnCommasAndLinesAndSkipsBlanks) {
  EXPECT_EQ(parse_token_list("t1,t2, t3"), (std::vector<std::string>{"t1", "t2", "t3"}));
  EXPECT_EQ(parse_token_list("t1\n\n t2 \r\n"), (std::vector<std::string>{"t1", "t2"}));
  EXPECT_TRUE(parse_token_list(" , \n").empty());
}

TEST(TokenList, EnvironmentPrecedenceIsPoolThenFileThenSingleToken) {
  EXPECT_EQ(configured_tokens("a,b", nullptr, "c"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(configured_tokens(nullptr, nullptr, "c"), (std::vector<std::string>{"c"}));
  EXPECT_EQ(configured_tokens("", "", ""), std::vector<std::string>{});
}

TEST(TokenList, FileIsReadWhenNoPoolIsGivenAndMustHoldATokenWithoutShowingIt) {
  faultline::testing::TempDir dir;
  std::string file = dir.write("tokens.txt", "first\nsecond\n");
  EXPECT_EQ(configured_tokens(nullptr, file.c_str(), "single"),
            (std::vector<std::string>{"first", "second"}));
  std::string empty = dir.write("empty.txt", "\n \n");
  try {
    configured_tokens(nullptr, empty.c_str(), "single");
    FAIL() << "an empty token file was accepted";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find(empty + ": holds no token"), std::string::npos) << e.what();
  }
  EXPECT_THROW(configured_tokens(nullptr, dir.file("absent.txt").c_str(), nullptr), faultline::Error);
}
