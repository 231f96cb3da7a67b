#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

#include "classifier/model/axis_model.hpp"
#include "classifier/model/fasttext_model.hpp"
#include "classifier/model/text_features.hpp"
#include "classifier/model/tfidf_index.hpp"
#include "common/error.hpp"
#include "datasets/store/snapshot.hpp"

using namespace faultline::model;

namespace {

// Documents D0 = {a, b}, D1 = {a, c}, D2 = {d}; N = 3, so idf(a) = ln(1 + 3/2), idf(b|c|d) = ln(1 + 3/1),
// and every count-1 term has tf weight 1. |D0| = |D1| = sqrt(idf(a)² + idf(b)²).
const double kIdfA = std::log(2.5), kIdfB = std::log(4.0);
const double kNorm = std::sqrt(kIdfA * kIdfA + kIdfB * kIdfB);

TfidfIndex three_documents(double max_share = 1.0) {
  return TfidfIndex({tokenize("a b"), tokenize("a c"), tokenize("d")}, max_share);
}

}  // namespace

TEST(TfidfIndex, CosinesAsWorkedOutByHand) {
  auto index = three_documents();
  Tokens q = tokenize("a b");
  auto n = index.nearest(q, 5);
  // D0 is the query itself: 1. D1 shares only a: idf(a)² / |D|². D2 shares nothing: left out.
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[0].item, 0u);
  EXPECT_NEAR(n[0].similarity, 1.0, 1e-12);
  EXPECT_EQ(n[1].item, 1u);
  EXPECT_NEAR(n[1].similarity, kIdfA * kIdfA / (kNorm * kNorm), 1e-12);
}

TEST(TfidfIndex, RepeatedTermsWeighByOnePlusLogCount) {
  // Query {a, a, c}: a weighs (1 + ln 2)·idf(a), c weighs idf(c); cos with D1 = (wa·idf(a) + idf(c)²) /
  // (|q|·|D1|), with D0 = wa·idf(a) / (|q|·|D0|). D1 comes first.
  auto index = three_documents();
  Tokens q = tokenize("a a c");
  const double wa = (1 + std::log(2.0)) * kIdfA, q_norm = std::sqrt(wa * wa + kIdfB * kIdfB);
  auto n = index.nearest(q, 5);
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[0].item, 1u);
  EXPECT_NEAR(n[0].similarity, (wa * kIdfA + kIdfB * kIdfB) / (q_norm * kNorm), 1e-12);
  EXPECT_EQ(n[1].item, 0u);
  EXPECT_NEAR(n[1].similarity, wa * kIdfA / (q_norm * kNorm), 1e-12);
}

TEST(TfidfIndex, RemovingTheSharedTokenChangesWhoIsNearest) {
  auto index = three_documents();
  Tokens with_b = tokenize("a b d"), without_b = tokenize("a d");
  EXPECT_EQ(index.nearest(with_b, 1)[0].item, 0u);  // a and b: D0
  // Without b, D2 = {d} shares d (idf ln 4) and beats D0 and D1, which share only a (idf ln 2.5).
  EXPECT_EQ(index.nearest(without_b, 1)[0].item, 2u);
}

TEST(TfidfIndex, TiesGoToTheEarlierDocumentAndUnknownTokensWeighNothing) {
  auto index = three_documents();
  Tokens q = tokenize("a never-seen");
  auto n = index.nearest(q, 2);
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[0].item, 0u);
  EXPECT_EQ(n[1].item, 1u);
  EXPECT_NEAR(n[0].similarity, kIdfA / kNorm, 1e-12);  // the unknown token adds nothing to |q|
  Tokens unknown = tokenize("zzz");
  EXPECT_TRUE(index.nearest(unknown, 3).empty());
}

TEST(TfidfIndex, TheKNearestAreTheFirstKOfAllInOrderWithTiesByIndex) {
  // D0 = {a, b}, D1 = {a, c}, D2 = {a, e}: for the query {a} all three are equally similar, so the first k
  // by index win; for {a, e} the last document is the nearest and must displace the earlier ones.
  TfidfIndex index({tokenize("a b"), tokenize("a c"), tokenize("a e")}, 1.0);
  auto items = [](const std::vector<Neighbour>& n) {
    std::vector<size_t> out;
    for (const auto& x : n) out.push_back(x.item);
    return out;
  };
  EXPECT_TRUE(index.nearest(tokenize("a"), 0).empty());
  EXPECT_EQ(items(index.nearest(tokenize("a"), 1)), (std::vector<size_t>{0}));
  EXPECT_EQ(items(index.nearest(tokenize("a"), 2)), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(items(index.nearest(tokenize("a"), 9)), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(items(index.nearest(tokenize("a e"), 1)), (std::vector<size_t>{2}));
  EXPECT_EQ(items(index.nearest(tokenize("a e"), 2)), (std::vector<size_t>{2, 0}));
}

TEST(TfidfIndex, TheTenNearestOfEachBundledIssueAreThoseOfTheCosinesWorkedOutApartUnderEitherCounting) {
  // Reference, computed here from the definition: idf = ln(1 + N / df) over the indexed half of the corpus,
  // terms in more than a quarter of it and the end-of-line token left out, weights (1 + ln count)·idf
  // (damped) or idf (each term once), cosines of the unit vectors; every document above 1e-12, by cosine
  // down and index up, cut at ten. Every issue asks, so the queries include documents the index has not
  // seen, and ten of over two hundred documents are kept, so the search's heap is full for most of a pass.
  std::vector<Tokens> docs;
  for (const auto& r : faultline::datasets::read_snapshot(std::string(FAULTLINE_SOURCE_DIR) +
                                                          "/datasets/snapshot/issues.jsonl")) {
    docs.push_back(tokenize(normalize_for_fasttext(document_text(r))));
  }
  const std::vector<Tokens> indexed(docs.begin(), docs.begin() + docs.size() / 2);
  TfidfIndex index(indexed, 0.25);
  using Vector = std::unordered_map<std::string, double>;
  auto counts = [](const Tokens& t) {
    std::unordered_map<std::string, int> c;
    for (const auto& w : t.words) {
      if (w != end_of_line_token()) ++c[w];
    }
    return c;
  };
  std::unordered_map<std::string, int> df;
  for (const auto& d : indexed) {
    for (const auto& [w, n] : counts(d)) ++df[w];
  }
  const double n_docs = static_cast<double>(indexed.size());
  for (const TermCounts term_counts : {TermCounts::kDamped, TermCounts::kOnce}) {
    SCOPED_TRACE(term_counts == TermCounts::kOnce ? "each term once" : "damped");
    auto unit_vector = [&](const Tokens& t) {
      Vector v;
      double norm = 0;
      for (const auto& [w, n] : counts(t)) {
        auto it = df.find(w);
        if (it == df.end() || it->second > 0.25 * n_docs) continue;
        const double tf = term_counts == TermCounts::kOnce ? 1.0 : 1 + std::log(n);
        const double weight = tf * std::log(1 + n_docs / it->second);
        v[w] = weight;
        norm += weight * weight;
      }
      for (auto& [w, x] : v) x /= std::sqrt(norm);
      return v;
    };
    std::vector<Vector> indexed_vectors;
    for (const auto& d : indexed) indexed_vectors.push_back(unit_vector(d));
    size_t compared = 0;
    for (const auto& query : docs) {
      const Vector q = unit_vector(query);
      std::vector<Neighbour> expected;
      for (size_t j = 0; j < indexed_vectors.size(); ++j) {
        double cosine = 0;
        for (const auto& [w, x] : q) {
          if (auto it = indexed_vectors[j].find(w); it != indexed_vectors[j].end()) cosine += x * it->second;
        }
        if (cosine > 1e-12) expected.push_back({j, std::min(cosine, 1.0)});
      }
      std::sort(expected.begin(), expected.end(), [](const Neighbour& a, const Neighbour& b) {
        return a.similarity != b.similarity ? a.similarity > b.similarity : a.item < b.item;
      });
      if (expected.size() > 10) expected.resize(10);
      const auto got = index.nearest(query, 10, term_counts);
      ASSERT_EQ(got.size(), expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_NEAR(got[i].similarity, expected[i].similarity, 1e-9);
        // Sums in another order differ in the last bits: the item must match unless a neighbour ties.
        const bool tied =
            (i > 0 && expected[i - 1].similarity - expected[i].similarity < 1e-9) ||
            (i + 1 < expected.size() && expected[i].similarity - expected[i + 1].similarity < 1e-9);
        if (!tied) {
          ASSERT_EQ(got[i].item, expected[i].item);
          ++compared;
        }
      }
    }
    EXPECT_GT(compared, docs.size() * 9);  // almost every place was compared by item
  }
}

TEST(NeighbourVote, SharesOfSimilarityAsWorkedOutByHand) {
  // x: .5 + .2, y: .3; the label z is not a class and is skipped. Smoothed by .1 per class:
  // x (.7 + .1) / (1.0 + .2), y (.3 + .1) / 1.2.
  std::vector<Neighbour> n{{0, 0.5}, {1, 0.3}, {2, 0.2}, {3, 0.9}};
  auto vote = neighbour_vote(&n, {"x", "y", "x", "z"}, {"x", "y"}, {}, 0);
  ASSERT_EQ(vote.size(), 2u);
  EXPECT_NEAR(vote[0], std::log(0.8 / 1.2), 1e-12);
  EXPECT_NEAR(vote[1], std::log(0.4 / 1.2), 1e-12);
  auto none = neighbour_vote(nullptr, {}, {"x", "y"}, {}, 0);
  EXPECT_NEAR(none[0], std::log(0.5), 1e-12);
}

TEST(NeighbourVote, ADescriptionAfterTheExamplesCountsItsWeightTimesItsSimilarity) {
  // Examples x, y (items 0, 1), then the descriptions of y and z (items 2, 3); item 4 is past both and
  // skipped. Neighbours: 0 at .5, 2 at .25, 3 at .1, 4 at .9. At weight 2: x .5, y 2·.25 = .5, z 2·.1 = .2,
  // each + .1, over 1.2 + .3 = 1.5. At weight 0 the descriptions count nothing: x .6, y .1, z .1 over .8.
  std::vector<Neighbour> n{{0, 0.5}, {2, 0.25}, {3, 0.1}, {4, 0.9}};
  const auto weighted = neighbour_vote(&n, {"x", "y"}, {"x", "y", "z"}, {"y", "z"}, 2.0);
  ASSERT_EQ(weighted.size(), 3u);
  EXPECT_NEAR(weighted[0], std::log(0.6 / 1.5), 1e-12);
  EXPECT_NEAR(weighted[1], std::log(0.6 / 1.5), 1e-12);
  EXPECT_NEAR(weighted[2], std::log(0.3 / 1.5), 1e-12);
  const auto unweighted = neighbour_vote(&n, {"x", "y"}, {"x", "y", "z"}, {"y", "z"}, 0.0);
  EXPECT_NEAR(unweighted[0], std::log(0.6 / 0.8), 1e-12);
  EXPECT_NEAR(unweighted[1], std::log(0.1 / 0.8), 1e-12);
  EXPECT_NEAR(unweighted[2], std::log(0.1 / 0.8), 1e-12);
}

TEST(TfidfIndex, OnlyItemsBelowTheBoundAreFoundButEveryItemCountsInTheTermStatistics) {
  // D0 = x y, D1 = x z, D2 = y. The query "y" has one term, so a document's cosine is y's share of its
  // norm: D2 1; D0, whose x and y are in two documents each (one idf), 1/sqrt 2. Below the bound 2 only
  // D0 is found, still at 1/sqrt 2. An index of D0 and D1 alone would weigh y by ln(1 + 2/1) and x by
  // ln(1 + 2/2), and find D0 at ln 3 / sqrt(ln² 2 + ln² 3) = 0.845737…
  TfidfIndex index({tokenize("x y"), tokenize("x z"), tokenize("y")});
  const Tokens q = tokenize("y");
  const auto all = index.nearest(q, 5);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].item, 2u);
  EXPECT_EQ(all[1].item, 0u);
  EXPECT_NEAR(all[1].similarity, 1 / std::sqrt(2.0), 1e-12);
  const auto below = index.nearest(q, 5, TermCounts::kDamped, 2);
  ASSERT_EQ(below.size(), 1u);
  EXPECT_EQ(below[0].item, 0u);
  EXPECT_NEAR(below[0].similarity, 1 / std::sqrt(2.0), 1e-12);
  const double alone = std::log(3.0) / std::sqrt(std::pow(std::log(2.0), 2) + std::pow(std::log(3.0), 2));
  ASSERT_NEAR(alone, 0.845737, 1e-6);
  EXPECT_NEAR(TfidfIndex({tokenize("x y"), tokenize("x z")}).nearest(q, 5)[0].similarity, alone, 1e-12);
  // Both countings in one pass, each with its own bound.
  const auto both = index.nearest_terms_both(
      index.term_ids(q), 5, {NeighbourSearch{TermCounts::kDamped, 3}, NeighbourSearch{TermCounts::kOnce, 2}});
  ASSERT_EQ(both[0].size(), 2u);
  EXPECT_EQ(both[0][0].item, 2u);
  ASSERT_EQ(both[1].size(), 1u);
  EXPECT_EQ(both[1][0].item, 0u);
}

TEST(AxisCombination, PriorCorrectionLetsTheRareClassWinAsWorkedOut) {
  // Class 0 is frequent (prior .8), class 1 rare (.2). fastText .6/.4, rules 1/0, vote even.
  AxisEvidence e{.log_fasttext = {std::log(0.6), std::log(0.4)},
                 .rules = {1, 0},
                 .discussion_rules = {0, 0},
                 .log_neighbours = {std::log(0.5), std::log(0.5)},
                 .log_prior = {std::log(0.8), std::log(0.2)},
                 .log_group = {0, 0}};
  // No correction, w_r = .5, T = 2: z0 = (ln .6 + .5 + ln .5) / 2, z1 = (ln .4 + ln .5) / 2.
  AxisWeights plain{.rule = 0.5, .neighbour = 1.0, .prior_correction = 0.0, .temperature = 2.0};
  double z0 = (std::log(0.6) + 0.5 + std::log(0.5)) / 2, z1 = (std::log(0.4) + std::log(0.5)) / 2;
  auto p = combine(e, plain);
  EXPECT_NEAR(p[0], std::exp(z0) / (std::exp(z0) + std::exp(z1)), 1e-12);
  EXPECT_GT(p[0], p[1]);
  // Full correction subtracts ln prior: z0 −= ln .8 / 2, z1 −= ln .2 / 2, and class 1 wins.
  AxisWeights corrected{.rule = 0.5, .neighbour = 1.0, .prior_correction = 1.0, .temperature = 2.0};
  z0 -= std::log(0.8) / 2, z1 -= std::log(0.2) / 2;
  auto q = combine(e, corrected);
  EXPECT_NEAR(q[1], std::exp(z1) / (std::exp(z0) + std::exp(z1)), 1e-12);
  EXPECT_GT(q[1], q[0]);
}

TEST(TfidfIndex, TermsInTooManyDocumentsAreLeftOut) {
  // a is in 2 of 3 documents: above a share of 0.5 it is dropped, so {a, b} matches D0 through b alone
  // (similarity 1: b is all that is left of both) and D1, which shared only a, is no longer returned.
  auto index = three_documents(0.5);
  Tokens q = tokenize("a b");
  auto n = index.nearest(q, 5);
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].item, 0u);
  EXPECT_NEAR(n[0].similarity, 1.0, 1e-12);
  Tokens only_a = tokenize("a");
  EXPECT_TRUE(index.nearest(only_a, 5).empty());
  // At a share of 1 (the default) a stays: D1 is found again.
  EXPECT_EQ(three_documents().nearest(q, 5).size(), 2u);
}

TEST(TfidfIndex, TwoWordsWithTheSameHashStayTwoTerms) {
  // "bgpvu" and "b13ea" have the same 32-bit FNV-1a hash (found by search): the index finds terms by hash
  // and must then tell them apart by their words.
  ASSERT_EQ(tokenize("bgpvu").hashes[0], tokenize("b13ea").hashes[0]);
  TfidfIndex index({tokenize("bgpvu x"), tokenize("b13ea y")});
  Tokens q = tokenize("b13ea");
  auto n = index.nearest(q, 5);
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].item, 1u);
}

TEST(AxisCombination, TheGroupTermAddsItsWeightedLogProbabilityAsWorkedOut) {
  // Two classes in different groups; the group model gives class 0's group .2 and class 1's .8. Everything
  // else even: with w_g = 1 and T = 1, z0 = ln .5 + ln .2, z1 = ln .5 + ln .8, so p1 = .8 / (.2 + .8) = .8.
  AxisEvidence e{.log_fasttext = {std::log(0.5), std::log(0.5)},
                 .rules = {0, 0},
                 .discussion_rules = {0, 0},
                 .log_neighbours = {0, 0},
                 .log_prior = {0, 0},
                 .log_group = {std::log(0.2), std::log(0.8)}};
  auto with_group = combine(e, AxisWeights{.group = 1.0});
  EXPECT_NEAR(with_group[1], 0.8, 1e-12);
  // w_g = 2 squares the group's odds: .8² / (.2² + .8²).
  EXPECT_NEAR(combine(e, AxisWeights{.group = 2.0})[1], 0.64 / 0.68, 1e-12);
  // Without its weight the group says nothing: even.
  EXPECT_NEAR(combine(e, AxisWeights{})[1], 0.5, 1e-12);
}

TEST(AxisCombination, TheDiscussionRulesAddTheirWeightedScoreAsWorkedOut) {
  // Two classes, everything even but a discussion-rule score of 1.5 for class 1. With w_t = 2 and T = 1:
  // z0 = ln .5, z1 = ln .5 + 3, so p1 = e³ / (1 + e³).
  AxisEvidence e{.log_fasttext = {std::log(0.5), std::log(0.5)},
                 .rules = {0, 0},
                 .discussion_rules = {0, 1.5},
                 .log_neighbours = {0, 0},
                 .log_prior = {0, 0},
                 .log_group = {0, 0}};
  EXPECT_NEAR(combine(e, AxisWeights{.discussion_rule = 2.0})[1], std::exp(3.0) / (1 + std::exp(3.0)), 1e-12);
  // The score counts only through its own weight: the whole-issue rule weight leaves it even.
  EXPECT_NEAR(combine(e, AxisWeights{.rule = 2.0})[1], 0.5, 1e-12);
  // Evidence without a discussion score for every class is refused, not read past its end.
  e.discussion_rules = {1.5};
  EXPECT_THROW(combine(e, AxisWeights{}), faultline::Error);
}

namespace {

// Three classes whose only evidence is fastText's probabilities `p`.
AxisEvidence fasttext_alone(double p0, double p1, double p2) {
  return {.log_fasttext = {std::log(p0), std::log(p1), std::log(p2)},
          .rules = {0, 0, 0},
          .discussion_rules = {0, 0, 0},
          .log_neighbours = {0, 0, 0},
          .log_prior = {0, 0, 0},
          .log_group = {0, 0, 0}};
}

}  // namespace

TEST(AxisCombination, TheTemperatureTempersTheWinnersOddsAgainstTheRestAsWorkedOut) {
  // fastText .6 / .3 / .1. At T = 1 that is the distribution itself.
  AxisEvidence e = fasttext_alone(0.6, 0.3, 0.1);
  auto plain = combine(e, AxisWeights{});
  EXPECT_NEAR(plain[0], 0.6, 1e-12);
  EXPECT_NEAR(plain[1], 0.3, 1e-12);
  EXPECT_NEAR(plain[2], 0.1, 1e-12);
  // T = 2: the winner's odds against the rest, .6 / .4, become sqrt(1.5) = 1.2247449, so
  // p0 = 1.2247449 / 2.2247449 = 0.5505103; the others share 0.4494897 as 3 : 1.
  auto tempered = combine(e, AxisWeights{.temperature = 2.0});
  EXPECT_NEAR(tempered[0], 0.5505103, 1e-7);
  EXPECT_NEAR(tempered[1], 0.3371173, 1e-7);
  EXPECT_NEAR(tempered[2], 0.1123724, 1e-7);
  // A temperature over every class, softmax(ln p / 2), would give the winner sqrt(.6) / (sqrt(.6) +
  // sqrt(.3) + sqrt(.1)) = 0.4727 instead: the tail of unlikely classes would pull it down.
  EXPECT_GT(std::abs(tempered[0] - 0.4727), 0.05);
}

TEST(AxisCombination, NoTemperatureLetsAnotherClassOvertakeTheWinner) {
  // Near a three-way tie the winner's untempered odds are under 1 (.34 / .66); tempering pulls its
  // probability towards one half, and the others' shares of the rest shrink with it: at T = 8,
  // p0 = 1 / (1 + (.66 / .34)^(1/8)) = 0.4793 and p1 = p2 = 0.2603.
  AxisEvidence e = fasttext_alone(0.34, 0.33, 0.33);
  for (double t : AxisTraining{}.temperatures) {
    auto p = combine(e, AxisWeights{.temperature = t});
    EXPECT_GT(p[0], p[1]) << "T = " << t;
    EXPECT_NEAR(p[0] + p[1] + p[2], 1.0, 1e-12);
  }
  auto at8 = combine(e, AxisWeights{.temperature = 8.0});
  EXPECT_NEAR(at8[0], 0.4793, 1e-4);
  EXPECT_NEAR(at8[1], 0.2603, 1e-4);
  // Under 1 the winner would fall below its rivals' shares: refused.
  EXPECT_THROW(combine(e, AxisWeights{.temperature = 0.5}), faultline::Error);
  // An exact tie goes to the first class, as the old softmax's equal values did: at T = 1 the rivals'
  // shares, (1 − 1/3) / 2, would round to a hair above 1/3 without the bound.
  for (int classes : {3, 6, 7}) {
    AxisEvidence tie{.log_fasttext = std::vector<double>(classes, -std::log(classes)),
                     .rules = std::vector<double>(classes, 0),
                     .discussion_rules = std::vector<double>(classes, 0),
                     .log_neighbours = std::vector<double>(classes, 0),
                     .log_prior = std::vector<double>(classes, 0),
                     .log_group = std::vector<double>(classes, 0)};
    auto p = combine(tie, AxisWeights{});
    EXPECT_EQ(std::max_element(p.begin(), p.end()) - p.begin(), 0) << classes << " classes";
  }
}

TEST(AxisCombination, TheTemperatureIsChosenByHowOftenTheWinnerIsRightAsWorkedOut) {
  // Four issues whose winner has untempered odds 9 : 1 (p = .9); three are right, one is of a class
  // the model gives almost nothing (1e-9). The log loss of the winner against being right,
  // −3 ln p − ln(1 − p), is least at p = 3/4, where the odds are 3 = 9^(1/T): T = 2.
  // (At T = 1.5 and 3, p = .8123 and .6754, losses 2.297 and 2.302 against 2.249.)
  std::vector<AxisEvidence> evidence(4, fasttext_alone(0.9, 0.1 - 1e-9, 1e-9));
  std::vector<size_t> gold{0, 0, 0, 2};
  EXPECT_EQ(calibrated_temperature(evidence, gold, AxisWeights{}, {1.0, 1.5, 2.0, 3.0, 4.0}), 2.0);
  // The log loss of the gold class instead would not see the wrong issue at all (its class's
  // probability is under any floor at every T) and would keep the winner as sure as it comes: T = 1.
  // All right, the surest temperature wins; none to choose from is an error.
  EXPECT_EQ(calibrated_temperature(evidence, {0, 0, 0, 0}, AxisWeights{}, {3.0, 1.0, 2.0}), 1.0);
  EXPECT_THROW(calibrated_temperature(evidence, gold, AxisWeights{}, {}), faultline::Error);
  // Nothing to calibrate on: every candidate has no loss, and the first is kept.
  EXPECT_EQ(calibrated_temperature({}, {}, AxisWeights{}, {3.0, 1.0}), 3.0);
}

TEST(TfidfIndex, ATermCountedOnceWeighsTheSameHoweverOftenItIsRepeated) {
  // D0 = x x x x y, D1 = x y; both terms are in both documents, so one idf, which cancels. Damped, D0 is
  // (1 + ln 4, 1) and the query "x y" (1, 1): cosine (2 + ln 4) / (sqrt 2 · sqrt((1 + ln 4)² + 1))
  // = 0.925452…, and D1 is the query itself (1). Counted once, D0 is (1, 1) too: both 1, lower index first.
  TfidfIndex index({tokenize("x x x x y"), tokenize("x y")});
  const Tokens q = tokenize("x y");
  const double d0 = (2 + std::log(4.0)) / (std::sqrt(2.0) * std::sqrt(std::pow(1 + std::log(4.0), 2) + 1));
  ASSERT_NEAR(d0, 0.925452, 1e-6);
  const auto damped = index.nearest(q, 5);
  ASSERT_EQ(damped.size(), 2u);
  EXPECT_EQ(damped[0].item, 1u);
  EXPECT_NEAR(damped[0].similarity, 1.0, 1e-12);
  EXPECT_EQ(damped[1].item, 0u);
  EXPECT_NEAR(damped[1].similarity, d0, 1e-12);
  const auto once = index.nearest(q, 5, TermCounts::kOnce);
  ASSERT_EQ(once.size(), 2u);
  EXPECT_EQ(once[0].item, 0u);
  EXPECT_NEAR(once[0].similarity, 1.0, 1e-12);
  EXPECT_EQ(once[1].item, 1u);
  EXPECT_NEAR(once[1].similarity, 1.0, 1e-12);
  // The query's repeats count once too: "x x x x x y" finds D0 and D1 alike.
  const auto repeated = index.nearest(tokenize("x x x x x y"), 5, TermCounts::kOnce);
  ASSERT_EQ(repeated.size(), 2u);
  EXPECT_NEAR(repeated[1].similarity, 1.0, 1e-12);
  // Both at once, in one pass: each list as the single search gives it.
  const auto both = index.nearest_terms_both(index.term_ids(q), 5);
  for (int c = 0; c < 2; ++c) {
    const auto& single = c == 0 ? damped : once;
    ASSERT_EQ(both[c].size(), single.size());
    for (size_t i = 0; i < single.size(); ++i) {
      EXPECT_EQ(both[c][i].item, single[i].item);
      EXPECT_EQ(both[c][i].similarity, single[i].similarity);
    }
  }
}

TEST(TfidfIndex, EachCountingHasTheNameASavedModelGivesItAndNoOtherNameIsOne) {
  // The saved model's field neighbour_term_counts spells the countings "damped" and "once" (a model saved
  // before the field counted damped); names are exact, so a capitalised or empty one is none.
  EXPECT_EQ(term_counts_name(TermCounts::kDamped), "damped");
  EXPECT_EQ(term_counts_name(TermCounts::kOnce), "once");
  EXPECT_EQ(term_counts_named("damped"), TermCounts::kDamped);
  EXPECT_EQ(term_counts_named("once"), TermCounts::kOnce);
  for (const char* other : {"Once", "damp", "", "once ", "sometimes"}) {
    SCOPED_TRACE(other);
    EXPECT_FALSE(term_counts_named(other).has_value());
  }
}
