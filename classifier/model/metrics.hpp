// Figures of merit for one axis: accuracy, macro-F1, Cohen's kappa, confusion, calibration, coverage.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace faultline::model {

struct ReliabilityBin {
  double low = 0, high = 0;
  int count = 0;
  double mean_confidence = 0;
  double accuracy = 0;
};

// What a classifier that labels only its confident items achieves: the items whose confidence is at
// least `threshold`, their share of all items, and the accuracy and macro-F1 on them.
struct ThresholdRow {
  double threshold = 0;
  int labeled = 0;
  double coverage = 0;
  double accuracy = 0;  // 0 when nothing is labeled
  double macro_f1 = 0;
};

// The accuracy of the `coverage` share of items the classifier is most confident of.
struct CoveragePoint {
  double coverage = 0;
  int labeled = 0;
  double accuracy = 0;
};

struct AxisMetrics {
  int n = 0;
  double accuracy = 0;
  // Mean over the classes that occur in the gold labels or the predictions of each class's F1
  // (a class never predicted and never true does not count; one predicted but never true scores 0).
  double macro_f1 = 0;
  double kappa = 0;
  std::map<std::string, std::map<std::string, int>> confusion;  // confusion[gold][predicted]
  std::vector<ReliabilityBin> reliability;  // 10 equal-width confidence bins (only with confidences)
  double expected_calibration_error = 0;    // Σ (n_b / n) |accuracy_b − confidence_b|
  // Largest share of items, taken in order of decreasing confidence, whose accuracy is still ≥ 0.9
  // (0 when even the most confident item is wrong).
  double coverage_at_90 = 0;
  std::vector<ThresholdRow> thresholds;  // 0.05, 0.10, …, 0.90
  std::vector<CoveragePoint> selective;  // coverage 0.2, 0.4, 0.6, 0.8, 1.0
};

// What a classifier labels when it chooses for itself which items to label: how many, their share of all
// items, and the accuracy on them (NaN when it labels none: no accuracy was measured; JSON writes null).
struct LabeledShare {
  int labeled = 0;
  double coverage = 0;
  double accuracy = 0;
};

LabeledShare score_labeled(const std::vector<std::string>& gold, const std::vector<std::string>& predicted,
                           const std::vector<bool>& labeled);

AxisMetrics score_axis(const std::vector<std::string>& gold, const std::vector<std::string>& predicted,
                       const std::vector<double>& confidence = {});

nlohmann::json metrics_json(const AxisMetrics& m, bool with_details);

}  // namespace faultline::model
