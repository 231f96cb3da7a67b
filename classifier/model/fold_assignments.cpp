#include "classifier/model/fold_assignments.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "common/error.hpp"
#include "common/parallel_tasks.hpp"

namespace faultline::model {

namespace {

constexpr uint64_t kMostSeeds = 10000;

// The figures in a fixed order, so that the spread is one loop over them.
constexpr double AxisFigures::*kFigures[] = {&AxisFigures::accuracy,     &AxisFigures::macro_f1,
                                             &AxisFigures::kappa,        &AxisFigures::surest,
                                             &AxisFigures::own_coverage, &AxisFigures::own_accuracy};

AxisFigures figures_of(const AxisEvaluation& e, double share) {
  const AxisMetrics& m = e.combined;
  return {m.accuracy,
          m.macro_f1,
          m.kappa,
          surest_share_accuracy(m, share),
          e.own_threshold.coverage,
          e.own_threshold.accuracy};
}

uint64_t parse_seed(std::string_view text, const std::string& list) {
  const std::string prefix = "eval: --seeds '" + list + "': ";
  if (text.empty()) {
    throw Error(prefix +
                "a seed is missing (an empty item, a range without one of its ends, or a minus sign: "
                "seeds are 0 or more)");
  }
  if (text.find(' ') != std::string_view::npos) throw Error(prefix + "write the list without spaces");
  uint64_t seed = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (end != text.data() + text.size() || (error != std::errc() && error != std::errc::result_out_of_range)) {
    throw Error(prefix + "'" + std::string(text) +
                "' is not a seed (a whole number, or a range such as 1-6)");
  }
  if (error == std::errc::result_out_of_range) {
    throw Error(prefix + "'" + std::string(text) + "' is larger than the largest seed, " +
                std::to_string(UINT64_MAX));
  }
  return seed;
}

nlohmann::json axis_json(const AxisFigures& f) {
  return {{"accuracy", f.accuracy},
          {"macro_f1", f.macro_f1},
          {"kappa", f.kappa},
          {"surest_accuracy", f.surest},
          {"own_threshold_coverage", f.own_coverage},
          {"own_threshold_accuracy", f.own_accuracy}};
}

}  // namespace

double surest_share_accuracy(const AxisMetrics& m, double share) {
  for (const auto& point : m.selective) {
    if (std::abs(point.coverage - share) < 1e-9) return point.accuracy;
  }
  throw Error("eval: no accuracy was measured for the surest " +
              std::to_string(static_cast<int>(std::lround(share * 100))) + "% of the issues");
}

FigureSpread spread(const std::vector<AxisFigures>& figures) {
  if (figures.empty()) throw Error("eval: no fold assignment to summarise");
  FigureSpread s;
  for (auto field : kFigures) {
    std::vector<double> measured;
    for (const auto& f : figures) {
      if (!std::isnan(f.*field)) measured.push_back(f.*field);
    }
    if (measured.empty()) {
      s.mean.*field = s.standard_deviation.*field = s.lowest.*field = s.highest.*field = std::nan("");
      continue;
    }
    const double n = static_cast<double>(measured.size());
    double sum = 0;
    for (double v : measured) sum += v;
    const double mean = sum / n;
    double squares = 0;
    for (double v : measured) squares += (v - mean) * (v - mean);
    s.mean.*field = mean;
    // One measured value of several assignments has no deviation either.
    s.standard_deviation.*field = measured.size() > 1  ? std::sqrt(squares / (n - 1))
                                  : figures.size() > 1 ? std::nan("")
                                                       : 0.0;
    s.lowest.*field = *std::min_element(measured.begin(), measured.end());
    s.highest.*field = *std::max_element(measured.begin(), measured.end());
  }
  return s;
}

std::vector<uint64_t> parse_seed_list(const std::string& text) {
  std::vector<uint64_t> seeds;
  std::set<uint64_t> seen;
  std::string_view rest = text;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const size_t dash = item.find('-');
    const uint64_t first = parse_seed(item.substr(0, dash), text);
    const uint64_t last = dash == std::string_view::npos ? first : parse_seed(item.substr(dash + 1), text);
    if (last < first) {
      throw Error("eval: --seeds '" + text + "': the range " + std::string(item) + " runs backwards");
    }
    // A range that names every seed there is would never end; thousands are already hours of training.
    // The range adds last − first + 1 seeds to those before it.
    if (last - first >= kMostSeeds - seeds.size()) {  // seeds.size() ≤ kMostSeeds: no wrap-around
      throw Error("eval: --seeds '" + text + "' names more than " + std::to_string(kMostSeeds) +
                  " fold assignments");
    }
    for (uint64_t seed = first;; ++seed) {
      if (!seen.insert(seed).second) {
        throw Error("eval: --seeds '" + text + "' names seed " + std::to_string(seed) + " twice");
      }
      seeds.push_back(seed);
      if (seed == last) break;
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return seeds;
}

ThreadShare share_threads(int jobs, int folds, size_t assignments) {
  // One assignment's folds keep at most `folds` threads busy; where there are more threads, several
  // assignments run at once, the threads shared out among them.
  const int threads = std::max(jobs, 1), per_assignment = std::max(folds, 1);
  const int at_once = static_cast<int>(
      std::clamp<size_t>(static_cast<size_t>((threads + per_assignment - 1) / per_assignment), 1,
                         std::max<size_t>(assignments, 1)));
  return {at_once, std::max(1, threads / at_once)};
}

std::vector<FoldAssignmentFigures> evaluate_fold_assignments(const std::vector<LabeledIssue>& labeled,
                                                             int folds, const std::vector<uint64_t>& seeds,
                                                             const AxisTraining& training, int jobs,
                                                             const AssignmentProgress& progress,
                                                             const LabelPolicy& labels) {
  const ThreadShare share = share_threads(jobs, folds, seeds.size());
  std::vector<FoldAssignmentFigures> out(seeds.size());
  std::mutex reporting;
  size_t done = 0;
  // Each assignment's figures do not depend on its threads (evaluate), and each goes to its own slot, so
  // the result is the same for any `jobs`.
  common::run_in_parallel(seeds.size(), share.assignments, [&](size_t s) {
    const Evaluation e = evaluate(labeled, folds, seeds[s], training, share.jobs_each, {}, labels);
    out[s] = {seeds[s], figures_of(e.symptom, kSymptomSurestShare),
              figures_of(e.root_cause, kRootCauseSurestShare)};
    const std::lock_guard<std::mutex> lock(reporting);
    ++done;
    if (progress) progress(done, seeds.size(), out[s]);
  });
  return out;
}

FoldAssignmentSummary summarise(const std::vector<FoldAssignmentFigures>& figures) {
  std::vector<AxisFigures> symptom, cause;
  for (const auto& f : figures) {
    symptom.push_back(f.symptom);
    cause.push_back(f.root_cause);
  }
  return {spread(symptom), spread(cause), figures.size() > 1};
}

nlohmann::json fold_assignments_json(int n, int folds, const std::vector<FoldAssignmentFigures>& figures) {
  nlohmann::json each = nlohmann::json::array();
  for (const auto& f : figures) {
    each.push_back(
        {{"seed", f.seed}, {"symptom", axis_json(f.symptom)}, {"root_cause", axis_json(f.root_cause)}});
  }
  const FoldAssignmentSummary summary = summarise(figures);
  nlohmann::json j = {
      {"n", n},
      {"folds", folds},
      {"surest_share", {{"symptom", kSymptomSurestShare}, {"root_cause", kRootCauseSurestShare}}},
      {"fold_assignments", each}};
  for (const auto& [name, part] :
       {std::pair{"mean", &FigureSpread::mean},
        std::pair{"standard_deviation", &FigureSpread::standard_deviation},
        std::pair{"lowest", &FigureSpread::lowest}, std::pair{"highest", &FigureSpread::highest}}) {
    j[name] = {{"symptom", axis_json(summary.symptom.*part)},
               {"root_cause", axis_json(summary.root_cause.*part)}};
  }
  if (!summary.has_deviation) j["standard_deviation"] = nullptr;
  return j;
}

}  // namespace faultline::model
