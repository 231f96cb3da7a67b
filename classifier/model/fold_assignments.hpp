// Cross-validation repeated over several fold assignments (seeds), summarised by the figures each axis is
// judged by: one assignment moves them by about ±0.02, more than most changes to the model, so figures that
// decide anything are means over many.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "classifier/model/evaluation.hpp"

namespace faultline::model {

// The shares of the most confident issues whose accuracy the classifier's targets name.
constexpr double kSymptomSurestShare = 0.6;
constexpr double kRootCauseSurestShare = 0.4;

// The accuracy of the `share` of items the classifier is most confident of (one of AxisMetrics::selective).
double surest_share_accuracy(const AxisMetrics& m, double share);

// What one cross-validation says of one axis: accuracy, macro-F1, Cohen's kappa, the accuracy of the
// axis's surest share, and what the folds' models label by their own label thresholds (their share of the
// issues, and the accuracy on them: NaN where they label none).
struct AxisFigures {
  double accuracy = 0;
  double macro_f1 = 0;
  double kappa = 0;
  double surest = 0;
  double own_coverage = 0;
  double own_accuracy = 0;
};

struct FoldAssignmentFigures {
  uint64_t seed = 0;
  AxisFigures symptom;
  AxisFigures root_cause;
};

// Each figure's mean, sample standard deviation (0 for one assignment, where it is not defined: see
// FoldAssignmentSummary::has_deviation), lowest and highest value. A figure not measured on an assignment
// (NaN) is left out of its own spread; measured on none, every part of its spread is NaN.
struct FigureSpread {
  AxisFigures mean, standard_deviation, lowest, highest;
};
FigureSpread spread(const std::vector<AxisFigures>& figures);

// Both axes' spreads over the assignments, what the JSON and the text both report.
struct FoldAssignmentSummary {
  FigureSpread symptom, root_cause;
  bool has_deviation = false;  // two or more assignments
};
FoldAssignmentSummary summarise(const std::vector<FoldAssignmentFigures>& figures);

// "1-6,8-31": seeds and inclusive ranges, comma-separated, each seed once, at most 10,000 in all. Throws on
// anything else.
std::vector<uint64_t> parse_seed_list(const std::string& text);

// Called after each fold assignment, one call at a time: how many are done, of how many, and the one just
// finished (assignments that run at once finish in any order).
using AssignmentProgress = std::function<void(size_t done, size_t total, const FoldAssignmentFigures& last)>;

// How `jobs` threads are shared among `assignments` fold assignments of `folds` folds each: as many
// assignments at once as it takes to keep the threads busy (one's folds use `folds` at most), each with an
// equal part of them.
struct ThreadShare {
  int assignments = 1;  // run at once
  int jobs_each = 1;    // threads for one assignment's folds
};
ThreadShare share_threads(int jobs, int folds, size_t assignments);

// `folds`-fold cross-validation (evaluate) once per seed; the figures of each, in the order of `seeds`. On
// `jobs` threads: several assignments at once where one's folds cannot use them all.
std::vector<FoldAssignmentFigures> evaluate_fold_assignments(const std::vector<LabeledIssue>& labeled,
                                                             int folds, const std::vector<uint64_t>& seeds,
                                                             const AxisTraining& training, int jobs = 1,
                                                             const AssignmentProgress& progress = {},
                                                             const LabelPolicy& labels = {});

// {"n", "folds", "surest_share": {symptom, root_cause}, "fold_assignments": [{seed, symptom, root_cause}],
//  "mean" / "standard_deviation" / "lowest" / "highest": {symptom, root_cause}}; the standard deviation is
// null for one assignment.
nlohmann::json fold_assignments_json(int n, int folds, const std::vector<FoldAssignmentFigures>& figures);

}  // namespace faultline::model
