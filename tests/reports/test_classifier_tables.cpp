#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.hpp"
#include "reports/classifier_tables.hpp"
#include "reports/table_formats.hpp"
#include "reports/tables.hpp"

using namespace faultline::reports;
using nlohmann::json;

namespace {

json axis(double accuracy, double macro_f1, double kappa, int labeled_at_half) {
  return {{"accuracy", accuracy},
          {"macro_f1", macro_f1},
          {"kappa", kappa},
          {"thresholds",
           {{{"threshold", 0.05},
             {"labeled", 4},
             {"coverage", 1.0},
             {"accuracy", accuracy},
             {"macro_f1", macro_f1}},
            {{"threshold", 0.5},
             {"labeled", labeled_at_half},
             {"coverage", labeled_at_half / 4.0},
             {"accuracy", 1.0},
             {"macro_f1", 1.0}}}}};
}

json baselines() {
  json b = {{"accuracy", 0.25}, {"macro_f1", 0.1}, {"kappa", 0.0}};
  return {{"majority", {{"symptom", b}, {"root_cause", b}}},
          {"rules", {{"symptom", b}, {"root_cause", b}}},
          {"fasttext", {{"symptom", b}, {"root_cause", b}}}};
}

// What eval --json writes for 4 issues in 2 folds, cut down to what the tables read.
json evaluation() {
  json e = {{"n", 4},
            {"folds", 2},
            {"symptom", axis(0.75, 0.5, -0.027, 3)},
            {"root_cause", axis(0.5, 0.25, 0.2, 1)},
            {"baselines", baselines()}};
  e["time_split"] = {{"cut", "2024-06-01"},
                     {"train", 3},
                     {"test", 1},
                     {"symptom", axis(1, 1, 1, 1)},
                     {"root_cause", axis(0, 0, 0, 0)},
                     {"baselines", baselines()}};
  return e;
}

}  // namespace

TEST(ClassifierTables, FiguresComeFromTheEvaluationWithTheRatersKappaInTheNote) {
  auto tables = classifier_tables(evaluation(), 0.87, "eval.json");
  ASSERT_EQ(tables.size(), 2u);
  const auto& optional = optional_table_ids();  // a report without an evaluation removes their files
  for (const auto& table : tables)
    EXPECT_NE(std::find(optional.begin(), optional.end(), table.id), optional.end()) << table.id;
  const Table& t = tables[0];
  // 2 evaluations × 2 axes × 4 methods (ensemble and three baselines).
  ASSERT_EQ(t.rows.size(), 16u);
  const auto& first = t.rows[0].values;
  EXPECT_EQ(first[t.column("evaluation")].text, "2-fold CV (4 issues)");
  EXPECT_EQ(first[t.column("method_id")].text, "ensemble");
  EXPECT_DOUBLE_EQ(first[t.column("accuracy")].measure, 0.75);
  EXPECT_DOUBLE_EQ(first[t.column("kappa")].measure, -0.027);
  EXPECT_EQ(t.rows[8].values[t.column("evaluation")].text, "Time split (3 older, 1 newer)");
  EXPECT_NE(t.note.find("kappa 0.870"), std::string::npos) << t.note;
  EXPECT_NE(t.note.find("2024-06-01"), std::string::npos) << t.note;
  // Without an audit there is no kappa to name.
  EXPECT_EQ(classifier_tables(evaluation(), std::nullopt, "e")[0].note.find("raters"), std::string::npos);
}

TEST(ClassifierTables, ThresholdCoverageIsTheLabeledShareOfAllIssues) {
  const Table t = classifier_tables(evaluation(), std::nullopt, "eval.json")[1];
  ASSERT_EQ(t.rows.size(), 4u);  // 2 thresholds × 2 axes
  const auto& half_symptom = t.rows[2].values;
  EXPECT_EQ(half_symptom[t.column("axis_id")].text, "symptom");
  EXPECT_EQ(half_symptom[t.column("coverage")].count, 3);
  EXPECT_EQ(half_symptom[t.column("coverage")].of, 4);
  // Programs read the share as a fraction and measures with six decimals; people read three.
  std::string csv = to_csv(t);
  EXPECT_NE(csv.find("0.500000,symptom,Symptom,3,0.750000,1.000000,1.000000,data"), std::string::npos) << csv;
  EXPECT_NE(to_markdown(t).find("| 0.500 | 75.00% | 1.000 | 1.000 | 25.00% |"), std::string::npos)
      << to_markdown(t);
}

TEST(ClassifierTables, TheThresholdNoteSaysWhatTheModelsLabelByTheirOwnThresholds) {
  json e = evaluation();
  EXPECT_EQ(classifier_tables(e, std::nullopt, "e")[1].note.find("own label thresholds"), std::string::npos);
  e["symptom"]["own_threshold"] = {{"coverage", 0.75}, {"accuracy", 1.0}, {"label_accuracy", 0.95}};
  e["root_cause"]["own_threshold"] = {{"coverage", 0.25}, {"accuracy", 0.0}, {"label_accuracy", 0.85}};
  const std::string note = classifier_tables(e, std::nullopt, "e")[1].note;
  EXPECT_NE(note.find("By its own label thresholds, each fold's model labels: Symptom 0.750 of the issues at "
                      "accuracy 1.000 (asked 0.950); Root cause 0.250 of the issues at accuracy 0.000 (asked "
                      "0.850)."),
            std::string::npos)
      << note;
  // A root cause that labeled none has no accuracy (null); a threshold fixed by hand was asked for none.
  e["root_cause"]["own_threshold"] = {{"coverage", 0.0}, {"accuracy", nullptr}, {"label_accuracy", 1.0}};
  e["symptom"]["own_threshold"]["label_accuracy"] = 0.0;
  e["symptom"]["own_threshold"]["mean_threshold"] = 0.5;
  const std::string other = classifier_tables(e, std::nullopt, "e")[1].note;
  EXPECT_NE(
      other.find(
          "Symptom 0.750 of the issues at accuracy 1.000 (a threshold fixed by hand at 0.500); Root cause "
          "0.000 of the issues at accuracy - (asked 1.000)."),
      std::string::npos)
      << other;
}

TEST(ClassifierTables, SomethingElseThanAnEvaluationIsAClearError) {
  json e = evaluation();
  e.erase("baselines");
  try {
    classifier_tables(e, std::nullopt, "report.json");
    FAIL() << "no error";
  } catch (const faultline::Error& err) {
    EXPECT_NE(std::string(err.what()).find("report.json: not what 'faultline eval --json' writes"),
              std::string::npos)
        << err.what();
  }
  EXPECT_EQ(measure_text(-0.0), "0.000");
  EXPECT_EQ(measure_text(-0.027), "-0.027");
}
