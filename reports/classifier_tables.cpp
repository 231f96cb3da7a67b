#include "reports/classifier_tables.hpp"

#include "common/error.hpp"

namespace faultline::reports {

namespace {

using nlohmann::json;

const std::pair<const char*, const char*> kAxes[] = {{"symptom", "Symptom"}, {"root_cause", "Root cause"}};

Value text(std::string s) { return Value::of_text(std::move(s)); }
Value measure(const json& j, const char* key) { return Value::of_measure(j.at(key).get<double>()); }

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
  const int n = e.at("n").get<int>(), folds = e.at("folds").get<int>();
  add_method_rows(t, "cross_validation",
                  std::to_string(folds) + "-fold CV (" + std::to_string(n) + " issues)", e);
  if (e.contains("time_split")) {
    const json& s = e.at("time_split");
    add_method_rows(t, "time_split",
                    "Time split (" + std::to_string(s.at("train").get<int>()) + " older, " +
                        std::to_string(s.at("test").get<int>()) + " newer)",
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
  const long long n = e.at("n").get<long long>();
  const json& first = e.at(kAxes[0].first).at("thresholds");
  for (size_t i = 0; i < first.size(); ++i) {
    for (const auto& [axis_id, axis] : kAxes) {
      const json& r = e.at(axis_id).at("thresholds").at(i);
      const long long labeled = r.at("labeled").get<long long>();
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
      const double asked = o.at("label_accuracy").get<double>();
      own += std::string(own.empty() ? " By its own label thresholds, each fold's model labels: " : "; ") +
             axis + " " + measure_text(o.at("coverage").get<double>()) + " of the issues at accuracy " +
             (o.at("accuracy").is_null() ? std::string("-") : measure_text(o.at("accuracy").get<double>())) +
             (asked > 0 ? " (asked " + measure_text(asked) + ")"
                        : " (a threshold fixed by hand at " +
                              measure_text(o.at("mean_threshold").get<double>()) + ")");
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
  } catch (const json::exception& e) {
    throw Error(origin + ": not what 'faultline eval --json' writes (" + e.what() + ")");
  }
}

}  // namespace faultline::reports
