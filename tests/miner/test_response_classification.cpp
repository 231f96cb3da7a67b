// The response classification of the GitHub client on hand-built responses: each rule and its neighbour
// that must come out the other way.
#include <gtest/gtest.h>

#include "miner/response_classification.hpp"

using namespace faultline::miner;

namespace {

// 2015-10-21T07:28:00Z, worked out with Python's calendar.timegm((2015, 10, 21, 7, 28, 0)).
constexpr double kOctober21 = 1445412480;

HttpResponse response(long status, std::map<std::string, std::string> headers = {}, std::string body = "") {
  return HttpResponse{status, std::move(headers), std::move(body)};
}

}  // namespace

TEST(RetryAfter, ReadsDeltaSecondsAndHttpDates) {
  EXPECT_EQ(parse_retry_after("120", kOctober21), 120.0);
  EXPECT_EQ(parse_retry_after("0", kOctober21), 0.0);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", kOctober21 - 100), 100.0);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", kOctober21 + 5), 0.0);  // already past
  EXPECT_FALSE(parse_retry_after("soon", kOctober21));
  EXPECT_FALSE(parse_retry_after("-5", kOctober21));
  EXPECT_FALSE(parse_retry_after("", kOctober21));
}

// The server's Date header: its time marks when a listing pass began.
TEST(HttpDate, IsReadInTheFormServersSendAndNothingElse) {
  EXPECT_EQ(http_date_epoch("Wed, 21 Oct 2015 07:28:00 GMT"), static_cast<int64_t>(kOctober21));
  EXPECT_FALSE(http_date_epoch("Wed, 21 Oct 2015 07:28:00 GMT trailing"));
  EXPECT_FALSE(http_date_epoch("2015-10-21T07:28:00Z"));
  EXPECT_FALSE(http_date_epoch(""));
}

TEST(RateLimitHeaders, AreReadOnlyWhenNumeric) {
  auto limit =
      rate_limit_of(response(200, {{"x-ratelimit-remaining", "17"}, {"x-ratelimit-reset", "9999999999"}}));
  EXPECT_EQ(limit.remaining, 17);
  EXPECT_EQ(limit.reset_epoch, 9999999999.0);
  auto unreadable = rate_limit_of(response(200, {{"x-ratelimit-remaining", "many"}}));
  EXPECT_FALSE(unreadable.remaining);
  EXPECT_FALSE(unreadable.reset_epoch);
}

TEST(ClassifyResponse, OkAndNotModifiedAreDone) {
  EXPECT_EQ(classify_response(response(200), kOctober21).verdict, Verdict::done);
  EXPECT_EQ(classify_response(response(304), kOctober21).verdict, Verdict::done);
  // A spent limit on a successful response is still the answer; the pool waits before the next request.
  EXPECT_EQ(classify_response(response(200, {{"x-ratelimit-remaining", "0"}}), kOctober21).verdict,
            Verdict::done);
}

TEST(ClassifyResponse, NotFoundAndGoneAreMissing) {
  EXPECT_EQ(classify_response(response(404), kOctober21).verdict, Verdict::missing);
  EXPECT_EQ(classify_response(response(410), kOctober21).reason, "410 Gone");
}

TEST(ClassifyResponse, RedirectNeedsALocation) {
  auto moved = classify_response(response(301, {{"location", "/repos/o/new"}}), kOctober21);
  EXPECT_EQ(moved.verdict, Verdict::redirect);
  EXPECT_EQ(moved.location, "/repos/o/new");
  EXPECT_EQ(classify_response(response(307, {{"location", "https://x/y"}}), kOctober21).verdict,
            Verdict::redirect);
  EXPECT_EQ(classify_response(response(301), kOctober21).verdict, Verdict::fail);
}

TEST(ClassifyResponse, RetryAfterOn403Or429IsARetryWithTheServersDelay) {
  auto seconds = classify_response(response(403, {{"retry-after", "30"}}), kOctober21);
  EXPECT_EQ(seconds.verdict, Verdict::retry);
  EXPECT_EQ(seconds.wait_s, 30.0);
  auto date =
      classify_response(response(429, {{"retry-after", "Wed, 21 Oct 2015 07:30:00 GMT"}}), kOctober21);
  EXPECT_EQ(date.verdict, Verdict::retry);
  EXPECT_EQ(date.wait_s, 120.0);
  // At least a second, so a "0" cannot make a busy loop.
  EXPECT_EQ(classify_response(response(403, {{"retry-after", "0"}}), kOctober21).wait_s, 1.0);
}

TEST(ClassifyResponse, SpentPrimaryLimitWaitsUntilTheResetPlusAMargin) {
  auto spent = classify_response(
      response(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1445412580"}}), kOctober21);
  EXPECT_EQ(spent.verdict, Verdict::wait);
  EXPECT_EQ(spent.wait_s, 101.0);  // reset 100 s ahead + 1 s margin
  auto huge = classify_response(
      response(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "9999999999"}}), kOctober21);
  EXPECT_EQ(huge.wait_s, 9999999999.0 - kOctober21 + 1);  // a positive figure, not an int overflow
  auto no_reset = classify_response(response(403, {{"x-ratelimit-remaining", "0"}}), kOctober21);
  EXPECT_EQ(no_reset.wait_s, 60.0);
}

TEST(ClassifyResponse, SecondaryLimitWithoutATimeWaitsAMinuteAndPlainForbiddenFails) {
  auto secondary = classify_response(
      response(403, {}, R"({"message":"You have exceeded a secondary rate limit"})"), kOctober21);
  EXPECT_EQ(secondary.verdict, Verdict::retry);
  EXPECT_EQ(secondary.wait_s, 60.0);  // GitHub's documentation: at least a minute when no time is named
  EXPECT_EQ(classify_response(response(429), kOctober21).verdict, Verdict::retry);
  EXPECT_EQ(classify_response(response(429), kOctober21).wait_s, 60.0);
  EXPECT_EQ(classify_response(response(403, {{"x-ratelimit-remaining", "12"}}), kOctober21).verdict,
            Verdict::fail);
}

TEST(ClassifyResponse, ServerErrorsRetryAndHonourRetryAfter) {
  auto bad_gateway = classify_response(response(502), kOctober21);
  EXPECT_EQ(bad_gateway.verdict, Verdict::retry);
  EXPECT_FALSE(bad_gateway.wait_s);
  EXPECT_EQ(classify_response(response(503, {{"retry-after", "7"}}), kOctober21).wait_s, 7.0);
}

TEST(ClassifyResponse, UnauthorizedAndOtherClientErrors) {
  EXPECT_EQ(classify_response(response(401), kOctober21).verdict, Verdict::unauthorized);
  EXPECT_EQ(classify_response(response(422), kOctober21).verdict, Verdict::fail);
  EXPECT_EQ(classify_response(response(418), kOctober21).reason, "unexpected HTTP 418");
}

// GitHub's message is what tells a missing scope from an organisation's SAML enforcement: it is quoted, on
// one line and cut at 300 bytes; a body that is not GitHub's JSON error adds nothing.
TEST(ClassifyResponse, ARefusalQuotesGitHubsMessage) {
  const std::string saml =
      R"({"message":"Resource protected by organization SAML enforcement.\nRe-authorize.",)"
      R"("documentation_url":"x"})";
  EXPECT_EQ(classify_response(response(403, {{"x-ratelimit-remaining", "12"}}, saml), kOctober21).reason,
            "403 Forbidden (check the token and its scopes); GitHub says: Resource protected by organization "
            "SAML enforcement.\\nRe-authorize.");
  EXPECT_EQ(classify_response(response(422, {}, R"({"message":"Validation Failed"})"), kOctober21).reason,
            "unexpected HTTP 422; GitHub says: Validation Failed");
  const std::string long_message = R"({"message":")" + std::string(1000, 'a') + R"("})";
  EXPECT_EQ(classify_response(response(451, {}, long_message), kOctober21).reason,
            "unexpected HTTP 451; GitHub says: " + std::string(300, 'a') + "...");
  // 299 bytes and then a two-byte character: the cut comes before it, not through it.
  const std::string accented = R"({"message":")" + std::string(299, 'a') + "\u00e9\u00e9" + R"("})";
  EXPECT_EQ(classify_response(response(451, {}, accented), kOctober21).reason,
            "unexpected HTTP 451; GitHub says: " + std::string(299, 'a') + "...");
  EXPECT_EQ(classify_response(response(422, {}, "<html>no</html>"), kOctober21).reason,
            "unexpected HTTP 422");
  EXPECT_EQ(classify_response(response(422, {}, R"({"message":7})"), kOctober21).reason,
            "unexpected HTTP 422");
}
