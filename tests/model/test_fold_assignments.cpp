#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "classifier/model/fold_assignments.hpp"
#include "common/error.hpp"
#include "tests/model/mixed_corpus.hpp"

using namespace faultline::model;
using faultline::testing::mixed_corpus;

namespace {

AxisTraining quick() {
  AxisTraining t = AxisTraining::standard();
  t.grid.resize(1);
  t.jobs = 1;
  return t;
}

}  // namespace

TEST(FoldAssignments, ASeedListNamesEachSeedOfItsRangesOnceInOrder) {
  const auto seeds = parse_seed_list("1-6,8-31");
  ASSERT_EQ(seeds.size(), 30u);  // 6 + 24
  EXPECT_EQ(seeds.front(), 1u);
  EXPECT_EQ(seeds[5], 6u);
  EXPECT_EQ(seeds[6], 8u);
  EXPECT_EQ(seeds.back(), 31u);
  EXPECT_EQ(parse_seed_list("7"), std::vector<uint64_t>{7});
  EXPECT_EQ(parse_seed_list("9,2,5-5"), (std::vector<uint64_t>{9, 2, 5}));
  EXPECT_EQ(parse_seed_list("18446744073709551615"), std::vector<uint64_t>{18446744073709551615u});
}

TEST(FoldAssignments, ASeedListThatIsNotSeedsAndRangesIsRefused) {
  for (const char* bad : {"", "a", "1,", ",1", "1,,2", "-3", "1-", "3-1", "1-2-3", " 1", "1 ", "+1", "1.5",
                          "18446744073709551616", "2,2", "1-3,3"}) {
    EXPECT_THROW(parse_seed_list(bad), faultline::Error) << bad;
  }
  auto message = [](const std::string& list) {
    try {
      parse_seed_list(list);
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("-3").find("a seed is missing"), std::string::npos) << message("-3");
  EXPECT_NE(message("1, 2").find("without spaces"), std::string::npos) << message("1, 2");
  EXPECT_NE(message("18446744073709551616").find("larger than the largest seed, 18446744073709551615"),
            std::string::npos);
  EXPECT_NE(message("18446744073709551616x").find("is not a seed"), std::string::npos);
  EXPECT_NE(message("3-1").find("3-1 runs backwards"), std::string::npos);
  EXPECT_NE(message("1-3,3").find("names seed 3 twice"), std::string::npos);
}

TEST(FoldAssignments, ASeedListMayNameTenThousandSeedsAndNoMore) {
  EXPECT_EQ(parse_seed_list("1-10000").size(), 10000u);
  EXPECT_EQ(parse_seed_list("1-5000,5001-10000").size(), 10000u);
  // The last one's ranges sum past 2^64 seeds: a count that wrapped round would let it through.
  for (const char* many : {"1-10001", "1-5000,5001-10001", "0-18446744073709551615",
                           "18446744073709551614,18446744073709551615,0-18446744073709551615"}) {
    EXPECT_THROW(parse_seed_list(many), faultline::Error) << many;
  }
}

TEST(FoldAssignments, TheSpreadOfThreeAssignmentsIsWorkedOutByHand) {
  // Each figure's three values, their mean, and the squares about it over n − 1 = 2:
  //   accuracy 0.5, 0.7, 0.9: mean 0.7, (0.04 + 0 + 0.04) / 2 = 0.04 → sd 0.2;
  //   macro-F1 0.6, 0.3, 0.6: mean 0.5, (0.01 + 0.04 + 0.01) / 2 = 0.03 → sd √0.03;
  //   kappa −0.4, −0.1, −0.1 (kappa can be negative): mean −0.2, (0.04 + 0.01 + 0.01) / 2 = 0.03 → sd √0.03;
  //   surest 1.0, 0.8, 0.9: mean 0.9, (0.01 + 0.01 + 0) / 2 = 0.01 → sd 0.1.
  const std::vector<AxisFigures> figures{{0.5, 0.6, -0.4, 1.0}, {0.7, 0.3, -0.1, 0.8}, {0.9, 0.6, -0.1, 0.9}};
  const FigureSpread s = spread(figures);
  EXPECT_NEAR(s.mean.accuracy, 0.7, 1e-12);
  EXPECT_NEAR(s.mean.macro_f1, 0.5, 1e-12);
  EXPECT_NEAR(s.mean.kappa, -0.2, 1e-12);
  EXPECT_NEAR(s.mean.surest, 0.9, 1e-12);
  EXPECT_NEAR(s.standard_deviation.accuracy, 0.2, 1e-12);
  EXPECT_NEAR(s.standard_deviation.macro_f1, std::sqrt(0.03), 1e-12);
  EXPECT_NEAR(s.standard_deviation.kappa, std::sqrt(0.03), 1e-12);
  EXPECT_NEAR(s.standard_deviation.surest, 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(s.lowest.accuracy, 0.5);
  EXPECT_DOUBLE_EQ(s.lowest.macro_f1, 0.3);
  EXPECT_DOUBLE_EQ(s.lowest.kappa, -0.4);
  EXPECT_DOUBLE_EQ(s.lowest.surest, 0.8);
  EXPECT_DOUBLE_EQ(s.highest.accuracy, 0.9);
  EXPECT_DOUBLE_EQ(s.highest.macro_f1, 0.6);
  EXPECT_DOUBLE_EQ(s.highest.kappa, -0.1);
  EXPECT_DOUBLE_EQ(s.highest.surest, 1.0);
  // A figure not measured on an assignment (NaN: its folds labeled none) is left out of its own spread:
  // own accuracy .8, NaN, .6 → mean .7, sd √((.01 + .01) / 1) = √.02, lowest .6, highest .8; the other
  // figures keep all three. Measured once of three: no deviation; never: all NaN.
  auto own = figures;
  own[0].own_accuracy = 0.8, own[1].own_accuracy = std::nan(""), own[2].own_accuracy = 0.6;
  const auto with_gap = spread(own);
  EXPECT_NEAR(with_gap.mean.own_accuracy, 0.7, 1e-12);
  EXPECT_NEAR(with_gap.standard_deviation.own_accuracy, std::sqrt(0.02), 1e-12);
  EXPECT_DOUBLE_EQ(with_gap.lowest.own_accuracy, 0.6);
  EXPECT_DOUBLE_EQ(with_gap.highest.own_accuracy, 0.8);
  EXPECT_NEAR(with_gap.mean.surest, 0.9, 1e-12);
  own[2].own_accuracy = std::nan("");
  EXPECT_DOUBLE_EQ(spread(own).mean.own_accuracy, 0.8);
  EXPECT_TRUE(std::isnan(spread(own).standard_deviation.own_accuracy));
  own[0].own_accuracy = std::nan("");
  EXPECT_TRUE(std::isnan(spread(own).mean.own_accuracy));
  EXPECT_TRUE(std::isnan(spread(own).highest.own_accuracy));
  // One assignment: its figures are the mean, and there is no spread to speak of.
  EXPECT_DOUBLE_EQ(spread({figures[1]}).mean.macro_f1, 0.3);
  EXPECT_DOUBLE_EQ(spread({figures[1]}).standard_deviation.accuracy, 0.0);
  EXPECT_THROW(spread({}), faultline::Error);
  EXPECT_FALSE(summarise({{1, figures[0], figures[1]}}).has_deviation);
  EXPECT_TRUE(summarise({{1, figures[0], figures[1]}, {2, figures[1], figures[2]}}).has_deviation);
}

TEST(FoldAssignments, EachAssignmentsFiguresAreThoseOfItsOwnCrossValidation) {
  // Every fifth issue relabeled to the next class's labels, so that the corpus is not separable and fold
  // assignments differ; each evaluated apart is the reference.
  auto corpus = mixed_corpus();
  for (size_t i = 0; i < corpus.size(); i += 5) {
    corpus[i].symptom = corpus[(i + 20) % corpus.size()].symptom;
    corpus[i].root_cause = corpus[(i + 20) % corpus.size()].root_cause;
  }
  const std::vector<uint64_t> seeds{3, 4};
  std::vector<size_t> progress;
  const auto figures = evaluate_fold_assignments(
      corpus, 3, seeds, quick(), 2, [&](size_t done, size_t total, const FoldAssignmentFigures& last) {
        EXPECT_EQ(total, 2u);
        EXPECT_EQ(last.seed, seeds[done - 1]);
        progress.push_back(done);
      });
  EXPECT_EQ(progress, (std::vector<size_t>{1, 2}));
  ASSERT_EQ(figures.size(), 2u);
  std::vector<Evaluation> alone;
  for (size_t i = 0; i < seeds.size(); ++i) {
    alone.push_back(evaluate(corpus, 3, seeds[i], quick(), 1));
    const Evaluation& e = alone.back();
    EXPECT_EQ(figures[i].seed, seeds[i]);
    EXPECT_DOUBLE_EQ(figures[i].symptom.accuracy, e.symptom.combined.accuracy);
    EXPECT_DOUBLE_EQ(figures[i].symptom.kappa, e.symptom.combined.kappa);
    EXPECT_DOUBLE_EQ(figures[i].root_cause.macro_f1, e.root_cause.combined.macro_f1);
    // The surest shares are the selective points at 60% (symptom) and 40% (root cause): the 3rd and 2nd of
    // 0.2, 0.4, …, 1.0.
    EXPECT_DOUBLE_EQ(figures[i].symptom.surest, e.symptom.combined.selective.at(2).accuracy);
    EXPECT_DOUBLE_EQ(figures[i].root_cause.surest, e.root_cause.combined.selective.at(1).accuracy);
  }
  // Else a summary that ignored the seed would pass.
  ASSERT_NE(alone[0].root_cause.combined.confusion, alone[1].root_cause.combined.confusion);

  const auto j = fold_assignments_json(static_cast<int>(corpus.size()), 3, figures);
  EXPECT_EQ(j.at("fold_assignments").size(), 2u);
  EXPECT_EQ(j.at("fold_assignments")[1].at("seed").get<uint64_t>(), 4u);
  EXPECT_NEAR(j.at("mean").at("root_cause").at("accuracy").get<double>(),
              (alone[0].root_cause.combined.accuracy + alone[1].root_cause.combined.accuracy) / 2, 1e-12);
  EXPECT_NEAR(j.at("lowest").at("symptom").at("kappa").get<double>(),
              std::min(alone[0].symptom.combined.kappa, alone[1].symptom.combined.kappa), 1e-12);
  EXPECT_NEAR(j.at("highest").at("symptom").at("kappa").get<double>(),
              std::max(alone[0].symptom.combined.kappa, alone[1].symptom.combined.kappa), 1e-12);
  // The sample standard deviation of two values a and b is |a − b| / √2.
  ASSERT_NE(alone[0].root_cause.combined.macro_f1, alone[1].root_cause.combined.macro_f1);
  EXPECT_NEAR(j.at("standard_deviation").at("root_cause").at("macro_f1").get<double>(),
              std::abs(alone[0].root_cause.combined.macro_f1 - alone[1].root_cause.combined.macro_f1) /
                  std::sqrt(2.0),
              1e-12);
  EXPECT_TRUE(fold_assignments_json(static_cast<int>(corpus.size()), 3, {figures[0]})
                  .at("standard_deviation")
                  .is_null());
  EXPECT_DOUBLE_EQ(j.at("surest_share").at("root_cause").get<double>(), 0.4);
}

TEST(FoldAssignments, ThreadsAreSharedSoThatAssignmentsRunAtOnceWhereOnesFoldsCannotUseThemAll) {
  // {jobs, folds, assignments} → {at once, threads each}, worked by hand: ceil(jobs / folds) at once, no more
  // than there are assignments, and an equal part of the threads each.
  struct Case {
    int jobs, folds;
    size_t assignments;
    int at_once, each;
  };
  for (const Case& c :
       {Case{6, 3, 3, 2, 3}, Case{2, 10, 30, 1, 2}, Case{16, 2, 3, 3, 5}, Case{16, 2, 30, 8, 2},
        Case{16, 10, 30, 2, 8}, Case{1, 10, 30, 1, 1}, Case{7, 3, 1, 1, 7}, Case{4, 2, 0, 1, 4}}) {
    const ThreadShare share = share_threads(c.jobs, c.folds, c.assignments);
    EXPECT_EQ(share.assignments, c.at_once) << c.jobs << " jobs, " << c.folds << " folds, " << c.assignments;
    EXPECT_EQ(share.jobs_each, c.each) << c.jobs << " jobs, " << c.folds << " folds, " << c.assignments;
  }
}

TEST(FoldAssignments, AssignmentsRunAtOnceGiveTheFiguresOfOneAfterAnother) {
  // Six threads for three folds: two assignments run at once, three threads each. The same assignments on
  // one thread, one after another, are the reference; whichever finishes first, each keeps its seed's slot.
  auto corpus = mixed_corpus();
  for (size_t i = 0; i < corpus.size(); i += 5)
    corpus[i].root_cause = corpus[(i + 20) % corpus.size()].root_cause;
  const std::vector<uint64_t> seeds{5, 6, 9};
  std::vector<size_t> done_counts;
  std::multiset<uint64_t> reported;
  const auto at_once = evaluate_fold_assignments(
      corpus, 3, seeds, quick(), 6, [&](size_t done, size_t total, const FoldAssignmentFigures& last) {
        EXPECT_EQ(total, 3u);
        done_counts.push_back(done);
        reported.insert(last.seed);
      });
  const auto in_turn = evaluate_fold_assignments(corpus, 3, seeds, quick(), 1);
  EXPECT_EQ(done_counts, (std::vector<size_t>{1, 2, 3}));
  EXPECT_EQ(reported, (std::multiset<uint64_t>{5, 6, 9}));
  ASSERT_EQ(at_once.size(), 3u);
  for (size_t i = 0; i < seeds.size(); ++i) {
    EXPECT_EQ(at_once[i].seed, seeds[i]);
    EXPECT_EQ(in_turn[i].seed, seeds[i]);
    EXPECT_EQ(at_once[i].root_cause.accuracy, in_turn[i].root_cause.accuracy);
    EXPECT_EQ(at_once[i].root_cause.surest, in_turn[i].root_cause.surest);
    EXPECT_EQ(at_once[i].symptom.kappa, in_turn[i].symptom.kappa);
  }
  // Else slots mixed up between seeds would go unseen.
  ASSERT_NE(in_turn[0].root_cause.accuracy, in_turn[1].root_cause.accuracy);
}

TEST(FoldAssignments, AShareTheMetricsDidNotMeasureIsAnError) {
  const AxisMetrics m =
      score_axis({"a", "b", "a", "b", "a"}, {"a", "b", "b", "b", "a"}, {0.9, 0.8, 0.7, 0.6, 0.5});
  // Surest 40% = the 2 most confident items, both right; surest 60% = 3, of which 2 right.
  EXPECT_DOUBLE_EQ(surest_share_accuracy(m, 0.4), 1.0);
  EXPECT_NEAR(surest_share_accuracy(m, 0.6), 2.0 / 3.0, 1e-12);
  EXPECT_THROW(surest_share_accuracy(m, 0.5), faultline::Error);
}
