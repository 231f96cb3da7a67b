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
};

AxisMetrics score_axis(const std::vector<std::string>& gold, const std::vector<std::string>& predicted,
                       const std::vector<double>& confidence = {});

nlohmann::json metrics_json(const AxisMetrics& m, bool with_details);

}  // namespace faultline::model
