// Which URLs the miner may request and which origin a URL has (the token goes to the API's origin only).
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "miner/api_url.hpp"
#include "miner/http_client.hpp"

using namespace faultline;
using namespace faultline::miner;

TEST(ApiUrl, OriginsCompareSchemeHostAndPort) {
  EXPECT_EQ(origin_of("https://api.github.com/repos/o/r?page=2"), "https://api.github.com:443");
  EXPECT_EQ(origin_of("https://API.GitHub.com:443/x"), "https://api.github.com:443");
  EXPECT_EQ(origin_of("http://127.0.0.1:8080/x"), "http://127.0.0.1:8080");
  EXPECT_NE(origin_of("http://localhost:8080/x"), origin_of("http://127.0.0.1:8080/x"));
  EXPECT_NE(origin_of("https://api.github.com.evil.example/x"), origin_of("https://api.github.com/x"));
  EXPECT_EQ(origin_of("ftp://api.github.com/x"), "");
}

TEST(ApiUrl, HttpsAnywhereAndPlainHttpOnlyOnLoopback) {
  EXPECT_NO_THROW(check_request_url("https://api.github.com", "base"));
  EXPECT_NO_THROW(check_request_url("http://127.0.0.1:9000", "base"));
  EXPECT_NO_THROW(check_request_url("http://localhost:9000/x", "base"));
  EXPECT_NO_THROW(check_request_url("http://[::1]:9000/x", "base"));
  EXPECT_THROW(check_request_url("http://api.github.com", "base"), Error);
  EXPECT_THROW(check_request_url("http://127.evil.example", "base"), Error);
  EXPECT_THROW(check_request_url("file:///etc/passwd", "base"), Error);
  EXPECT_THROW(check_request_url("api.github.com", "base"), Error);
}

TEST(ApiUrl, EmbeddedCredentialsAreRejectedWithoutRepeatingThem) {
  try {
    check_request_url("http://u:TOKEN123@127.0.0.1:9000", "the API base URL");
    FAIL() << "credentials accepted";
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_EQ(message.find("TOKEN123"), std::string::npos) << message;
    EXPECT_NE(message.find("must not embed credentials"), std::string::npos) << message;
  }
}

TEST(ApiUrl, LocationsResolveAgainstTheAnsweringUrl) {
  EXPECT_EQ(resolve_location("http://127.0.0.1:1/repos/a/b?x=1", "/repos/c/d"),
            "http://127.0.0.1:1/repos/c/d");
  EXPECT_EQ(resolve_location("http://127.0.0.1:1/repos/a/b", "https://other/x"), "https://other/x");
}

// GitHub's Link URLs percent-encode the cursor; a '%' not followed by two hex digits stays as it is.
TEST(PercentDecoded, DecodesEachEscapeAndLeavesTheRest) {
  EXPECT_EQ(faultline::miner::percent_decoded("2024-01-01T00%3A00%3A00Z"), "2024-01-01T00:00:00Z");
  EXPECT_EQ(faultline::miner::percent_decoded("a%2Bb+c%zz%4"), "a+b+c%zz%4");
  EXPECT_EQ(faultline::miner::percent_decoded(""), "");
}
