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
    for (int step = 1; step <= 18; ++step) {
      ThresholdRow row{.threshold = step / 20.0};
      std::vector<std::string> g, p;
      for (size_t i = 0; i < gold.size(); ++i) {
        if (confidence[i] >= row.threshold - 1e-12) g.push_back(gold[i]), p.push_back(predicted[i]);
      }
      row.labeled = static_cast<int>(g.size());
      row.coverage = static_cast<double>(g.size()) / m.n;
      if (!g.empty()) {
        AxisMetrics on_labeled = score_axis(g, p);
        row.accuracy = on_labeled.accuracy;
        row.macro_f1 = on_labeled.macro_f1;
      }
      m.thresholds.push_back(row);
    }
    for (int fifth = 1; fifth <= 5; ++fifth) {
      CoveragePoint point{.coverage = fifth / 5.0};
      point.labeled = static_cast<int>(std::ceil(point.coverage * m.n - 1e-9));
      int correct = 0;
      for (int k = 0; k < point.labeled; ++k) correct += gold[order[k]] == predicted[order[k]];
      point.accuracy = point.labeled ? static_cast<double>(correct) / point.labeled : 0.0;
      m.selective.push_back(point);
    }
  }
  return m;
}

LabeledShare score_labeled(const std::vector<std::string>& gold, const std::vector<std::string>& predicted,
                           const std::vector<bool>& labeled) {
  if (gold.size() != predicted.size() || gold.size() != labeled.size() || gold.empty())
    throw Error("metrics: need equal, non-empty label lists");
  LabeledShare share;
  int correct = 0;
  for (size_t i = 0; i < gold.size(); ++i) {
    if (!labeled[i]) continue;
    ++share.labeled;
    correct += gold[i] == predicted[i];
  }
  share.coverage = static_cast<double>(share.labeled) / static_cast<double>(gold.size());
  share.accuracy = share.labeled ? static_cast<double>(correct) / share.labeled : std::nan("");
  return share;
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
    j["thresholds"] = nlohmann::json::array();
    for (const auto& r : m.thresholds) {
      j["thresholds"].push_back({{"threshold", r.threshold},
                                 {"labeled", r.labeled},
                                 {"coverage", r.coverage},
                                 {"accuracy", r.accuracy},
                                 {"macro_f1", r.macro_f1}});
    }
    j["selective"] = nlohmann::json::array();
    for (const auto& s : m.selective) {
      j["selective"].push_back({{"coverage", s.coverage}, {"labeled", s.labeled}, {"accuracy", s.accuracy}});
    }
  }
  return j;
}

}  // namespace faultline::model
