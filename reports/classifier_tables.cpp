#include "reports/classifier_tables.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "common/error.hpp"

namespace faultline::reports {

namespace {

using nlohmann::json;

// More issues than any store holds (SQLite's rowids stop at 2^63; eval holds them all in memory).
constexpr long long kMostIssues = 1LL << 40;

const std::pair<const char*, const char*> kAxes[] = {{"symptom", "Symptom"}, {"root_cause", "Root cause"}};

// A figure that eval cannot write (an accuracy over 1, a kappa under -1, a count under 0): a hand-edited or
// foreign file, whose figures would otherwise print as results.
struct ImpossibleFigure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double figure(const json& j, const char* key, double lowest, double highest) {
  const double value = j.at(key).get<double>();
  if (!(value >= lowest && value <= highest)) {
    std::ostringstream bounds;
    bounds << std::setprecision(15) << lowest << " to " << highest;
    throw ImpossibleFigure(std::string(key) + " is " + j.at(key).dump() + ", outside " + bounds.str());
  }
  return value;
}

long long count_of(const json& j, const char* key, long long lowest, long long highest) {
  const double value = figure(j, key, static_cast<double>(lowest), static_cast<double>(highest));
  if (!j.at(key).is_number_integer() || value != std::floor(value))
    throw ImpossibleFigure(std::string(key) + " is " + j.at(key).dump() + ", not a whole number");
  return j.at(key).get<long long>();
}

// The issues cross-validated: two at least, as there are two folds at least.
long long issues_evaluated(const json& e) { return count_of(e, "n", 2, kMostIssues); }

Value text(std::string s) { return Value::of_text(std::move(s)); }
// Accuracy, macro-F1, coverage and thresholds lie in [0, 1]; Cohen's kappa in [-1, 1].
Value measure(const json& j, const char* key) {
  return Value::of_measure(figure(j, key, std::string(key) == "kappa" ? -1 : 0, 1));
}

void add_method_rows(Table& t, const std::string& evaluation_id, const std::string& evaluation,
                     const json& e) {
  const std::pair<const char*, const char*> methods[] = {{"ensemble", "Ensemble"},
                                                         {"fasttext", "fastText alone"},
                                                         {"rules", "Rules alone"},
                                                         {"majority", "Majority class"}};
  for (const auto& [axis_id, axis] : kAxes) {
    for (const auto& [method_id, method] : methods) {
      const json& m =
          std::string(method_id) == "ensemble" ? e.at(axis_id) : e.at("baselines").at(method_id).at(axis_id);
      t.rows.push_back({{text(evaluation_id), text(evaluation), text(axis_id), text(axis), text(method_id),
                         text(method), measure(m, "accuracy"), measure(m, "macro_f1"), measure(m, "kappa")}});
    }
  }
}

Table evaluation_table(const json& e, std::optional<double> human_kappa) {
  Table t;
  t.id = "classifier_evaluation";
  t.title = "Classifier against the final manual labels";
  t.columns = {{"evaluation_id", "", ColumnType::text},
               {"evaluation", "Evaluation", ColumnType::text},
               {"axis_id", "", ColumnType::text},
               {"axis", "Axis", ColumnType::text},
               {"method_id", "", ColumnType::text},
               {"method", "Method", ColumnType::text},
               {"accuracy", "Accuracy", ColumnType::measure},
               {"macro_f1", "Macro-F1", ColumnType::measure},
               {"kappa", "Kappa", ColumnType::measure}};
  // n is read first, so that it is the figure named when there are too few issues for two folds.
  const long long n = issues_evaluated(e), folds = count_of(e, "folds", 2, n);
  add_method_rows(t, "cross_validation",
                  std::to_string(folds) + "-fold CV (" + std::to_string(n) + " issues)", e);
  if (e.contains("time_split")) {
    const json& s = e.at("time_split");
    add_method_rows(t, "time_split",
                    "Time split (" + std::to_string(count_of(s, "train", 0, kMostIssues)) + " older, " +
                        std::to_string(count_of(s, "test", 0, kMostIssues)) + " newer)",
                    s);
  }
  t.note =
      "From faultline eval: stratified cross-validation, and a model trained on the issues created before " +
      (e.contains("time_split") ? e.at("time_split").at("cut").get<std::string>() : std::string("(none)")) +
      " tested on the newer ones. Baselines on the same folds.";
  if (human_kappa)
    t.note += " The raters agreed with each other at kappa " + measure_text(*human_kappa) + ".";
  return t;
}

Table threshold_table(const json& e) {
  Table t;
  t.id = "classifier_thresholds";
  t.title = "Classifier labeling only above a confidence threshold";
  t.columns = {{"threshold", "Threshold", ColumnType::measure},
               {"axis_id", "", ColumnType::text},
               {"axis", "Axis", ColumnType::text},
               {"labeled", "", ColumnType::count},
               {"coverage", "Coverage", ColumnType::share},
               {"accuracy", "Accuracy", ColumnType::measure},
               {"macro_f1", "Macro-F1", ColumnType::measure}};
  t.spread = Spread{"axis_id", "axis", {"coverage", "accuracy", "macro_f1"}};
  const long long n = issues_evaluated(e);
  const json& first = e.at(kAxes[0].first).at("thresholds");
  for (size_t i = 0; i < first.size(); ++i) {
    for (const auto& [axis_id, axis] : kAxes) {
      const json& r = e.at(axis_id).at("thresholds").at(i);
      const long long labeled = count_of(r, "labeled", 0, n);
      t.rows.push_back({{measure(r, "threshold"), text(axis_id), text(axis), Value::of_count(labeled),
                         Value::of_share(labeled, n), measure(r, "accuracy"), measure(r, "macro_f1")}});
    }
  }
  t.note =
      "Cross-validated: coverage is the share of the " + std::to_string(n) +
      " issues whose predicted class has at least the threshold's probability; accuracy and macro-F1 are "
      "on those issues only (0 when none).";
  // An eval written before models chose their own thresholds has none to tell of.
  if (e.at("symptom").contains("own_threshold")) {
    std::string own;
    for (const auto& [axis_id, axis] : kAxes) {
      const json& o = e.at(axis_id).at("own_threshold");
      const double asked = figure(o, "label_accuracy", 0, 1);
      own += std::string(own.empty() ? " By its own label thresholds, each fold's model labels: " : "; ") +
             axis + " " + measure_text(figure(o, "coverage", 0, 1)) + " of the issues at accuracy " +
             (o.at("accuracy").is_null() ? std::string("-") : measure_text(figure(o, "accuracy", 0, 1))) +
             (asked > 0 ? " (asked " + measure_text(asked) + ")"
                        : " (a threshold fixed by hand at " +
                              measure_text(figure(o, "mean_threshold", 0, 1)) + ")");
    }
    t.note += own + ".";
  }
  return t;
}

}  // namespace

std::vector<Table> classifier_tables(const json& evaluation, std::optional<double> human_kappa,
                                     const std::string& origin) {
  try {
    return {evaluation_table(evaluation, human_kappa), threshold_table(evaluation)};
  } catch (const std::exception& e) {  // json's exceptions and ImpossibleFigure
    throw Error(origin + ": not what 'faultline eval --json' writes (" + e.what() + ")");
  }
}

}  // namespace faultline::reports
