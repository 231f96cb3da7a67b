#include "classifier/model/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>

#include "classifier/annotation/kappa.hpp"
#include "common/error.hpp"

namespace faultline::model {

AxisMetrics score_axis(const std::vector<std::string>& gold, const std::vector<std::string>& predicted,
                       const std::vector<double>& confidence) {
  if (gold.size() != predicted.size() || gold.empty())
    throw Error("metrics: need equal, non-empty label lists");
  AxisMetrics m;
  m.n = static_cast<int>(gold.size());
  // Gold against predicted is an agreement table: accuracy is its p_o, and a class's specific agreement
  // 2·tp / (row + col) = 2·tp / (2·tp + fp + fn) is that class's F1.
  annotation::Agreement agreement = annotation::cohen_kappa(gold, predicted);
  m.confusion = agreement.confusion;
  m.accuracy = agreement.observed;
  m.kappa = agreement.kappa;
  double f1_sum = 0;
  for (const auto& [c, f1] : agreement.per_category) f1_sum += f1;
  m.macro_f1 = f1_sum / agreement.per_category.size();

  if (confidence.size() == gold.size()) {
    m.reliability.resize(10);
    for (int b = 0; b < 10; ++b) m.reliability[b].low = b / 10.0, m.reliability[b].high = (b + 1) / 10.0;
    for (size_t i = 0; i < gold.size(); ++i) {
      int b = std::min(9, static_cast<int>(confidence[i] * 10));
      auto& bin = m.reliability[b];
      ++bin.count;
      bin.mean_confidence += confidence[i];
      bin.accuracy += gold[i] == predicted[i] ? 1 : 0;
    }
    for (auto& bin : m.reliability) {
      if (bin.count == 0) continue;
      bin.mean_confidence /= bin.count;
      bin.accuracy /= bin.count;
      m.expected_calibration_error +=
          static_cast<double>(bin.count) / m.n * std::fabs(bin.accuracy - bin.mean_confidence);
    }
    std::vector<size_t> order(gold.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return confidence[a] > confidence[b]; });
    int hits = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      if (gold[order[k]] == predicted[order[k]]) ++hits;
      if (hits >= 0.9 * (k + 1)) m.coverage_at_90 = static_cast<double>(k + 1) / m.n;
    }
  }
  return m;
}

nlohmann::json metrics_json(const AxisMetrics& m, bool with_details) {
  nlohmann::json j = {{"accuracy", m.accuracy}, {"macro_f1", m.macro_f1}, {"kappa", m.kappa}};
  if (!with_details) return j;
  j["confusion"] = m.confusion;
  if (!m.reliability.empty()) {
    j["coverage_at_accuracy_0.9"] = m.coverage_at_90;
    j["expected_calibration_error"] = m.expected_calibration_error;
    j["reliability"] = nlohmann::json::array();
    for (const auto& b : m.reliability) {
      j["reliability"].push_back({{"low", b.low},
                                  {"high", b.high},
                                  {"count", b.count},
                                  {"mean_confidence", b.mean_confidence},
                                  {"accuracy", b.accuracy}});
    }
  }
  return j;
}

}  // namespace faultline::model
