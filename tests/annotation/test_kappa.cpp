#include <gtest/gtest.h>

#include <cmath>

#include "classifier/annotation/kappa.hpp"
#include "common/error.hpp"

using faultline::annotation::cohen_kappa;
using faultline::annotation::fleiss_kappa;

TEST(CohenKappa, HandWorkedTwoByTwoTable) {
  // Confusion (rater1 rows, rater2 columns): AA=4, AB=2, BA=1, BB=3; n=10.
  // p_o = 7/10; marginals rater1 A=.6 B=.4, rater2 A=.5 B=.5; p_e = .6*.5 + .4*.5 = .5; kappa = .2/.5 = .4.
  std::vector<std::string> r1{"A", "A", "A", "A", "A", "A", "B", "B", "B", "B"};
  std::vector<std::string> r2{"A", "A", "A", "A", "B", "B", "B", "B", "B", "A"};
  auto a = cohen_kappa(r1, r2);
  EXPECT_EQ(a.n, 10);
  EXPECT_DOUBLE_EQ(a.observed, 0.7);
  EXPECT_DOUBLE_EQ(a.expected, 0.5);
  EXPECT_NEAR(a.kappa, 0.4, 1e-12);
  // SE = sqrt(.7*.3 / (10 * .5^2)) = sqrt(.084) = 0.2898275; CI = .4 ± 1.96*SE = [-0.1680619, 0.9680619].
  EXPECT_NEAR(a.standard_error, 0.2898275, 1e-6);
  EXPECT_NEAR(a.ci_low, -0.1680619, 1e-6);
  EXPECT_NEAR(a.ci_high, 0.9680619, 1e-6);
  // Specific agreement: A = 2*4/(6+5) = 8/11, B = 2*3/(4+5) = 2/3.
  EXPECT_NEAR(a.per_category["A"], 8.0 / 11.0, 1e-12);
  EXPECT_NEAR(a.per_category["B"], 2.0 / 3.0, 1e-12);
  EXPECT_EQ(a.confusion["A"]["B"], 2);
  EXPECT_EQ(a.confusion["B"]["A"], 1);
}

TEST(CohenKappa, PerfectAgreementIsOneWithZeroWidthInterval) {
  auto a = cohen_kappa({"A", "B", "C", "A"}, {"A", "B", "C", "A"});
  EXPECT_DOUBLE_EQ(a.kappa, 1.0);
  EXPECT_DOUBLE_EQ(a.standard_error, 0.0);  // p_o (1 - p_o) = 0
  EXPECT_DOUBLE_EQ(a.ci_low, 1.0);
}

TEST(CohenKappa, ExpectedAgreementOfOneLeavesKappaUndefined) {
  // Both raters used only "A": p_o = p_e = 1, 0/0 by the formula (documented in kappa.hpp).
  auto a = cohen_kappa({"A", "A", "A"}, {"A", "A", "A"});
  EXPECT_DOUBLE_EQ(a.expected, 1.0);
  EXPECT_FALSE(a.defined);
  EXPECT_TRUE(std::isnan(a.kappa));
  EXPECT_TRUE(std::isnan(a.ci_low) && std::isnan(a.ci_high));
  // The trigger removed: one item of another category, p_e = (2/3)(2/3) + (1/3)(1/3) = 5/9 < 1, kappa 1.
  auto b = cohen_kappa({"A", "A", "B"}, {"A", "A", "B"});
  EXPECT_TRUE(b.defined);
  EXPECT_DOUBLE_EQ(b.kappa, 1.0);
}

TEST(CohenKappa, CategoryUsedByOnlyOneRater) {
  // r1: A A B, r2: A A C. p_o = 2/3; p_e = (2/3)(2/3) + (1/3)(0) + (0)(1/3) = 4/9;
  // kappa = (2/3 - 4/9) / (5/9) = 0.4. B and C each have specific agreement 0.
  auto a = cohen_kappa({"A", "A", "B"}, {"A", "A", "C"});
  EXPECT_NEAR(a.kappa, 0.4, 1e-12);
  EXPECT_DOUBLE_EQ(a.per_category["B"], 0.0);
  EXPECT_DOUBLE_EQ(a.per_category["C"], 0.0);
  EXPECT_DOUBLE_EQ(a.per_category["A"], 1.0);
}

TEST(CohenKappa, SingleItem) {
  EXPECT_FALSE(cohen_kappa({"A"}, {"A"}).defined);  // p_e = 1
  auto d = cohen_kappa({"A"}, {"B"});               // p_o = 0, p_e = 0 → 0
  EXPECT_DOUBLE_EQ(d.kappa, 0.0);
  EXPECT_DOUBLE_EQ(d.standard_error, 0.0);
}

TEST(CohenKappa, SystematicDisagreementIsNegative) {
  // r1: A B A B, r2: B A B A. p_o = 0, p_e = .5 → kappa = -1.
  EXPECT_DOUBLE_EQ(cohen_kappa({"A", "B", "A", "B"}, {"B", "A", "B", "A"}).kappa, -1.0);
}

TEST(CohenKappa, RejectsEmptyAndUnequalInputs) {
  EXPECT_THROW(cohen_kappa({}, {}), faultline::Error);
  EXPECT_THROW(cohen_kappa({"A"}, {"A", "B"}), faultline::Error);
}

TEST(FleissKappa, HandWorkedThreeRaters) {
  // Items (3 raters): AAA, AAB, BBB, ABB. P_i = 1, 1/3, 1, 1/3 → P̄ = 2/3.
  // Category totals A = 6, B = 6 of 12 → P̄e = .25 + .25 = .5; kappa = (2/3 - 1/2) / (1/2) = 1/3.
  double k = fleiss_kappa({{"A", "A", "A"}, {"A", "A", "B"}, {"B", "B", "B"}, {"A", "B", "B"}});
  EXPECT_NEAR(k, 1.0 / 3.0, 1e-12);
}

TEST(FleissKappa, TwoRatersAgreeWithScottsPiOnSymmetricMarginals) {
  // With two raters Fleiss' kappa equals Scott's pi; when both raters have the same marginals it equals
  // Cohen's kappa. r1 = r2-permuted: A A B B vs A B A B → p_o = .5, p_e = .5 → 0.
  EXPECT_NEAR(fleiss_kappa({{"A", "A"}, {"A", "B"}, {"B", "A"}, {"B", "B"}}), 0.0, 1e-12);
}

TEST(FleissKappa, EveryLabelOneCategoryLeavesKappaUndefined) {
  // P̄ = P̄e = 1: 0/0. The trigger removed (one B): P̄ = (1 + 1/3)/2 = 2/3, P̄e = (5/6)^2 + (1/6)^2 = 13/18,
  // kappa = (2/3 - 13/18) / (5/18) = -1/5.
  EXPECT_TRUE(std::isnan(fleiss_kappa({{"A", "A", "A"}, {"A", "A", "A"}})));
  EXPECT_NEAR(fleiss_kappa({{"A", "A", "A"}, {"A", "A", "B"}}), -0.2, 1e-12);
}
