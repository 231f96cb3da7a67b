#include <gtest/gtest.h>

#include <sstream>

#include "classifier/model/similar_issues.hpp"

using namespace faultline::model;

namespace {

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

SimilarIssues index_of(const std::vector<std::string>& documents) {
  std::vector<std::vector<std::string>> tokens;
  for (const auto& d : documents) tokens.push_back(words(d));
  return SimilarIssues(tokens);
}

// Worked by hand for N = 3 documents: idf = 1 + ln((1 + N) / (1 + df)), so
//   df 1: b = 1 + ln 2   = 1.693147
//   df 2: a = 1 + ln 4/3 = 1.287682
//   df 0 (a token no document holds): u = 1 + ln 4 = 2.386294
// and tf = 1 + ln(count): 1 for a single occurrence, 1 + ln 2 = 1.693147 for two.
constexpr double kTol = 1e-6;

}  // namespace

TEST(SimilarIssues, CosinesMatchTheHandWorkedTfIdfAndAnIdenticalDocumentIsOne) {
  // cuda and illegal have df 2 (weight a), the other tokens df 1 (weight b).
  auto index = index_of({"cuda illegal memory", "cuda illegal access", "build fails nvcc"});
  auto m = index.nearest(words("cuda illegal memory"), 5);
  ASSERT_EQ(m.size(), 2u);  // "build fails nvcc" shares no token: not returned
  EXPECT_EQ(m[0].item, 0u);
  EXPECT_NEAR(m[0].similarity, 1.0, 1e-12);
  // D0 = (a, a, b), D1 = (a, a, 0, b): cos = 2a² / (2a² + b²) = 3.316250 / 6.182997 = 0.536350.
  EXPECT_EQ(m[1].item, 1u);
  EXPECT_NEAR(m[1].similarity, 0.536350, kTol);
}

TEST(SimilarIssues, ADocumentSharingNoTokenIsNotReturned) {
  auto index = index_of({"cuda illegal memory", "cuda illegal access", "build fails nvcc"});
  EXPECT_TRUE(index.nearest(words("deadlock barrier"), 5).empty());
  // The trigger put back: one shared token and the third document comes back.
  auto m = index.nearest(words("deadlock barrier nvcc"), 5);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].item, 2u);
}

TEST(SimilarIssues, RemovingTheSharedTokenChangesTheOrder) {
  // warp has df 2 (a); hang, barrier, build, nvcc df 1 (b). D0 = (hang b, warp a, barrier b), |D0|
  // = 2.718753; D1 = (warp a).
  auto index = index_of({"hang warp barrier", "warp", "build nvcc"});
  // q = (hang b, warp a), |q| = sqrt(a² + b²) = 2.127175:
  //   cos(q, D0) = (b² + a²) / (|q| |D0|) = 4.524872 / 5.783264 = 0.782408
  //   cos(q, D1) = a / |q| = 0.605349
  auto with_hang = index.nearest(words("hang warp"), 5);
  ASSERT_EQ(with_hang.size(), 2u);
  EXPECT_EQ(with_hang[0].item, 0u);
  EXPECT_NEAR(with_hang[0].similarity, 0.782408, kTol);
  EXPECT_EQ(with_hang[1].item, 1u);
  EXPECT_NEAR(with_hang[1].similarity, 0.605349, kTol);
  // Without "hang", the token only D0 shared: cos(warp, D1) = 1, cos(warp, D0) = a / |D0| = 0.473630.
  auto without = index.nearest(words("warp"), 5);
  ASSERT_EQ(without.size(), 2u);
  EXPECT_EQ(without[0].item, 1u);
  EXPECT_NEAR(without[0].similarity, 1.0, 1e-12);
  EXPECT_EQ(without[1].item, 0u);
  EXPECT_NEAR(without[1].similarity, 0.473630, kTol);
}

TEST(SimilarIssues, RepeatedTokensWeighSublinearly) {
  auto index = index_of({"hang warp barrier", "warp", "build nvcc"});
  // q = (warp (1 + ln 2)·a = 2.180235, hang b), |q| = 2.760466:
  //   cos(q, D0) = (2.180235·a + b²) / (|q| |D0|) = 5.674197 / 7.505027 = 0.756053
  //   cos(q, D1) = 2.180235 / |q| = 0.789807 — the doubled warp now outweighs the shared hang.
  auto m = index.nearest(words("warp warp hang"), 5);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].item, 1u);
  EXPECT_NEAR(m[0].similarity, 0.789807, kTol);
  EXPECT_NEAR(m[1].similarity, 0.756053, kTol);
}

TEST(SimilarIssues, UnknownQueryTokensLengthenTheQuery) {
  auto index = index_of({"hang warp barrier", "warp", "build nvcc"});
  // q = (warp a, cutlass u): cos(q, D1) = a / sqrt(a² + u²) = 1.287682 / 2.711554 = 0.474887.
  auto m = index.nearest(words("warp cutlass"), 5);
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[0].item, 1u);
  EXPECT_NEAR(m[0].similarity, 0.474887, kTol);
}

TEST(SimilarIssues, KLimitsTheMatchesAndTiesKeepTheEarlierDocument) {
  auto index = index_of({"warp", "hang", "warp", "warp"});
  auto m = index.nearest(words("warp"), 2);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].item, 0u);
  EXPECT_EQ(m[1].item, 2u);
  EXPECT_EQ(index.nearest(words("warp"), 10).size(), 3u);
  EXPECT_TRUE(index.nearest({}, 5).empty());
}

TEST(KnnVote, EachLabelGetsItsShareOfTheSimilarity) {
  std::vector<std::string> labels{"hang", "crash", "hang"};
  // hang: (0.8 + 0.2) / 1.6 = 0.625; crash: 0.6 / 1.6 = 0.375.
  auto vote = knn_vote({{0, 0.8}, {1, 0.6}, {2, 0.2}}, labels);
  ASSERT_EQ(vote.size(), 2u);
  EXPECT_DOUBLE_EQ(vote.at("hang"), 0.625);
  EXPECT_DOUBLE_EQ(vote.at("crash"), 0.375);
  // Without the third match hang's share falls to 0.8 / 1.4 = 4/7.
  auto two = knn_vote({{0, 0.8}, {1, 0.6}}, labels);
  EXPECT_DOUBLE_EQ(two.at("hang"), 0.8 / 1.4);
  EXPECT_TRUE(knn_vote({}, labels).empty());
}
