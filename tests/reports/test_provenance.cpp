// What the report counts: final manual labels by default; predictions only on request, only for
// screened-in candidates, and never in the tables that count labels.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"
#include "reports/findings.hpp"
#include "reports/html_report.hpp"
#include "reports/report_data.hpp"
#include "reports/table_display.hpp"
#include "reports/tables.hpp"
#include "tests/reports/study_dataset.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::reports;
namespace ds = faultline::datasets;

namespace {

// Three issues: #1 has a final manual label and is in the sample; #2 is a screened-in candidate with a
// confident prediction; #3 has an equally confident prediction but screening excluded it (it is open).
void add_issue(ds::Database& db, int n, const std::string& state) {
  ds::IssueRecord r;
  r.repo = "NVIDIA/cutlass";
  r.number = n;
  r.url = "https://github.com/NVIDIA/cutlass/issues/" + std::to_string(n);
  r.state = state;
  r.title = "crash " + std::to_string(n);
  ds::upsert_issue(db, r);
}

void fill(ds::Database& db) {
  for (int n = 1; n <= 3; ++n) add_issue(db, n, n == 3 ? "open" : "closed");
  auto id = [&](int n) { return *ds::find_issue(db, "NVIDIA/cutlass", n); };
  ds::replace_screening(db,
                        {{id(1), "candidate", "r"}, {id(2), "candidate", "r"}, {id(3), "excluded", "open"}});
  ds::replace_sample(db, "main",
                     {{id(1), "sampled", "draw", {}, {}, 1}, {id(2), "sampled", "draw", {}, {}, 1}});
  ds::replace_final_labels(db, {{id(1), "crash", "api_misuse", "agreed", "a,b"}},
                           ds::record_audit(db, "a,b", 1, 1.0, 0.8, "pass"));
  ds::replace_predictions(
      db,
      {{id(2), "v", "in", .9, "hang", .9, "concurrency_error", .9, false, "[]", std::nullopt, std::nullopt},
       {id(3), "v", "in", .9, "hang", .9, "concurrency_error", .9, false, "[]", std::nullopt, std::nullopt}});
}

const Table& table(const std::vector<Table>& tables, const std::string& id) {
  for (const auto& t : tables) {
    if (t.id == id) return t;
  }
  static const Table none;
  ADD_FAILURE() << "no table " << id;
  return none;
}

}  // namespace

TEST(ReportProvenance, ByDefaultOnlyFinalManualLabelsAreCounted) {
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  fill(db);
  auto data = load_report_data(db, ReportOptions{});
  ASSERT_EQ(data.cases.size(), 1u);
  EXPECT_EQ(data.cases[0].issue, "NVIDIA/cutlass#1");
  EXPECT_TRUE(data.predicted_cases.empty());
}

TEST(ReportProvenance, AFinalLabelOutsideTheSampleIsNotCountedButSaidApart) {
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  fill(db);
  auto id = [&](int n) { return *ds::find_issue(db, "NVIDIA/cutlass", n); };
  ds::replace_sample(db, "main", {{id(2), "sampled", "draw", {}, {}, 1}});  // #1 is no longer in it
  auto data = load_report_data(db, ReportOptions{});
  EXPECT_TRUE(data.cases.empty());
  EXPECT_EQ(data.funnel.labeled_outside, 1);
  auto tables = all_tables(data);
  EXPECT_NE(table(tables, "table1_funnel").note.find("outside it (1)"), std::string::npos)
      << table(tables, "table1_funnel").note;
}

// The audit cited is the one that made the final labels, under the name of its statistic: Cohen's kappa
// for two raters, Fleiss' for three (it was "Cohen's" for both).
TEST(ReportProvenance, TheAuditCitedIsThatOfTheFinalLabelsNamedByItsStatistic) {
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  fill(db);
  auto id = [&](int n) { return *ds::find_issue(db, "NVIDIA/cutlass", n); };
  auto cited = [&] {
    auto data = load_report_data(db, ReportOptions{});
    const auto findings = compute_findings(data);
    std::string text;
    for (const auto& f : findings) text += f + "\n";
    return text + render_html(data, all_tables(data), findings);
  };
  std::string text = cited();
  EXPECT_NE(text.find("Cohen's kappa 1.00 over 1 issues"), std::string::npos) << text;
  EXPECT_EQ(text.find("Fleiss"), std::string::npos);
  ds::replace_final_labels(db, {{id(1), "crash", "api_misuse", "agreed", "a,b,c"}},
                           ds::record_audit(db, "a,b,c", 1, 0.7, 0.6, "pass"));
  text = cited();
  EXPECT_NE(text.find("Fleiss' kappa 0.70 over 1 issues"), std::string::npos) << text;
  EXPECT_NE(text.find("Fleiss' kappa 0.700 over 1 issues labeled by all 3 raters"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("Cohen's kappa"), std::string::npos) << text;
  // A later audit that failed took the labels back (run_audit empties them): no audit is cited, not the
  // last one that passed.
  ds::replace_final_labels(db, {}, ds::record_audit(db, "a,b", 1, 0.1, 0.8, "fail"));
  text = cited();
  EXPECT_EQ(text.find("kappa 0.7"), std::string::npos) << text;
  EXPECT_EQ(text.find("audited:"), std::string::npos) << text;
}

TEST(ReportProvenance, WithPredictionsOnlyScreenedInCandidatesAreAddedAndKeptApart) {
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  fill(db);
  ReportOptions options;
  options.include_predictions = true;
  auto data = load_report_data(db, options);
  ASSERT_EQ(data.cases.size(), 1u);  // the manual label alone
  ASSERT_EQ(data.predicted_cases.size(), 1u);
  EXPECT_EQ(data.predicted_cases[0].issue, "NVIDIA/cutlass#2");  // #3 was screened out
  EXPECT_EQ(data.predicted_cases[0].provenance, "predicted");
  EXPECT_NE(compute_findings(data).back().find(
                "; 1 candidate without a final label carries only a classifier prediction, counted in the "
                "prediction tables alone."),
            std::string::npos)
      << compute_findings(data).back();
  // A rater's label of #2 that no audit made final leaves it a prediction, as the tables' titles say.
  const int64_t two = *ds::find_issue(db, "NVIDIA/cutlass", 2);
  ds::put_manual_label(
      db, {two, "alice", "hang", "performance_bug", "", ds::create_label_batch(db, "alice", "s")});
  data = load_report_data(db, options);
  ASSERT_EQ(data.predicted_cases.size(), 1u);
  EXPECT_NE(prediction_tables(data)[0].title.find("predictions for 1 screened-in candidate without a final label"),
            std::string::npos)
      << prediction_tables(data)[0].title;
}

TEST(ReportProvenance, CandidatesLeftOutOfThePredictedTablesAreCountedByWhy) {
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  fill(db);
  // Seven more: #4 and #5 candidates the model abstains on, #6 one it predicts out of scope, #7 to #9 ones
  // with no prediction, #10 an excluded issue with no prediction (no candidate, so not counted).
  for (int n = 4; n <= 10; ++n) add_issue(db, n, "closed");
  auto id = [&](int n) { return *ds::find_issue(db, "NVIDIA/cutlass", n); };
  std::vector<ds::ScreeningDecision> decisions;
  for (int n = 1; n <= 10; ++n)
    decisions.push_back({id(n), n == 3 || n == 10 ? "excluded" : "candidate", "r"});
  ds::replace_screening(db, decisions);
  auto predictions = ds::load_predictions(db);
  ds::replace_predictions(
      db, {predictions.at(id(2)),
           predictions.at(id(3)),
           {id(4), "v", "in", .9, "hang", .9, "concurrency_error", .3, true, "[]", .5, .5},
           {id(5), "v", "in", .2, "hang", .2, "concurrency_error", .9, true, "[]", .5, .5},
           {id(6), "v", "out", .9, "hang", .9, "concurrency_error", .9, false, "[]", .5, .5}});
  ReportOptions options;
  options.include_predictions = true;
  auto data = load_report_data(db, options);
  ASSERT_EQ(data.predicted_cases.size(), 1u);  // #2 alone
  EXPECT_EQ(data.not_predicted.abstained, 2);
  EXPECT_EQ(data.not_predicted.predicted_out_of_scope, 1);
  EXPECT_EQ(data.not_predicted.unclassified, 3);
  const auto tables = all_tables(data);
  const Table& p = table(tables, "table2_symptoms_predicted");
  const std::string said =
      "without a predicted case: 6 (2 the model abstains on; 1 it predicts out of scope; 3 with no "
      "prediction";
  EXPECT_NE(p.note.find(said), std::string::npos) << p.note;
  EXPECT_NE(render_html(data, {}, {}).find(said), std::string::npos);         // in the provenance paragraph
  EXPECT_EQ(load_report_data(db, ReportOptions{}).not_predicted.total(), 0);  // not asked: not looked at
}

TEST(ReportProvenance, PredictionsHaveTablesOfTheirOwnTitledAsPredictions) {
  auto data = faultline::testing::study_report_data();
  const std::string labeled = std::to_string(data.cases.size());
  EXPECT_TRUE(prediction_tables(data).empty());
  Case predicted = data.cases[0];
  predicted.provenance = "predicted";
  data.predicted_cases = {predicted, predicted};
  auto tables = all_tables(data);
  // Table II still totals the manual labels only.
  EXPECT_EQ(display_grid(table(tables, "table2_symptoms")).rows.back()[1], labeled);
  const Table& p = table(tables, "table2_symptoms_predicted");
  EXPECT_EQ(display_grid(p).rows.back()[1], "2");
  EXPECT_NE(p.title.find("classifier predictions"), std::string::npos);
  EXPECT_EQ(p.note.find("labeled issues"), std::string::npos);
  EXPECT_EQ(display_grid(table(tables, "table3_root_causes_predicted")).rows.back()[2], "2");
}

// Figures eval cannot write (an accuracy over 1, a kappa under -1, fewer than 2 folds, a count that is not
// whole) would be printed as results; each is refused naming the file and the figure. A file eval wrote
// itself passes (ReportProvenance tests above read them).
TEST(ReportProvenance, AnEvaluationWithFiguresEvalCannotWriteIsRefused) {
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  fill(db);
  const std::string axis = R"({"accuracy": 0.5, "macro_f1": 0.5, "kappa": 0.5, "thresholds": []})";
  auto evaluation = [&](const std::string& n, const std::string& folds, const std::string& symptom) {
    return R"({"n": )" + n + R"(, "folds": )" + folds + R"(, "symptom": )" + symptom + R"(, "root_cause": )" +
           axis + R"(, "baselines": {"fasttext": {"symptom": )" + axis + R"(, "root_cause": )" + axis +
           R"(}, "rules": {"symptom": )" + axis + R"(, "root_cause": )" + axis +
           R"(}, "majority": {"symptom": )" + axis + R"(, "root_cause": )" + axis + "}}}";
  };
  auto refusal = [&](const std::string& content) {
    ReportOptions options;
    options.evaluation_path = dir.file("eval.json");
    faultline::common::write_file_atomically(options.evaluation_path, content);
    try {
      load_report_data(db, options);
      return std::string("read");
    } catch (const faultline::Error& e) {
      return std::string(e.what()).substr(options.evaluation_path.size());
    }
  };
  const std::string refused = ": not what 'faultline eval --json' writes (";
  EXPECT_EQ(refusal(evaluation("10", "2", axis)), "read");
  EXPECT_EQ(refusal(evaluation("10", "2", R"({"accuracy": 1e308, "macro_f1": 0.5, "kappa": 0.5})")),
            refused + "accuracy is 1e+308, outside 0 to 1)");
  EXPECT_EQ(refusal(evaluation("10", "2", R"({"accuracy": 0.5, "macro_f1": 0.5, "kappa": -5})")),
            refused + "kappa is -5, outside -1 to 1)");
  EXPECT_EQ(refusal(evaluation("10", "2", R"({"accuracy": 0.5, "macro_f1": -0.1, "kappa": 0.5})")),
            refused + "macro_f1 is -0.1, outside 0 to 1)");
  EXPECT_EQ(refusal(evaluation("-3", "2", axis)), refused + "n is -3, outside 2 to 1099511627776)");
  EXPECT_EQ(refusal(evaluation("10", "0", axis)), refused + "folds is 0, outside 2 to 10)");
  EXPECT_EQ(refusal(evaluation("10.5", "2", axis)), refused + "n is 10.5, not a whole number)");
  // The threshold table's rows, each axis's own thresholds and the time split are held to the same.
  const auto valid = nlohmann::json::parse(evaluation("10", "2", axis));
  auto changed = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json e = valid;
    for (const char* a : {"symptom", "root_cause"}) {
      e[a]["thresholds"] = {{{"threshold", 0.5}, {"labeled", 4}, {"accuracy", 0.75}, {"macro_f1", 0.5}}};
      e[a]["own_threshold"] = {{"label_accuracy", 0.85}, {"coverage", 0.4}, {"accuracy", 0.75}};
    }
    e["time_split"] = valid;
    e["time_split"].erase("n");
    e["time_split"].erase("folds");
    e["time_split"]["train"] = 8;
    e["time_split"]["test"] = 2;
    e["time_split"]["cut"] = "2025-01-01";
    change(e);
    return refusal(e.dump());
  };
  EXPECT_EQ(changed([](nlohmann::json&) {}), "read");
  EXPECT_EQ(changed([](nlohmann::json& e) { e["root_cause"]["thresholds"][0]["labeled"] = 11; }),
            refused + "labeled is 11, outside 0 to 10)");
  EXPECT_EQ(changed([](nlohmann::json& e) { e["symptom"]["thresholds"][0]["threshold"] = 1.5; }),
            refused + "threshold is 1.5, outside 0 to 1)");
  EXPECT_EQ(changed([](nlohmann::json& e) { e["root_cause"]["own_threshold"]["coverage"] = 2; }),
            refused + "coverage is 2, outside 0 to 1)");
  EXPECT_EQ(changed([](nlohmann::json& e) { e["symptom"]["own_threshold"]["label_accuracy"] = -1; }),
            refused + "label_accuracy is -1, outside 0 to 1)");
  EXPECT_EQ(changed([](nlohmann::json& e) { e["time_split"]["train"] = -8; }),
            refused + "train is -8, outside 0 to 1099511627776)");
  EXPECT_EQ(changed([](nlohmann::json& e) { e["time_split"]["root_cause"]["kappa"] = 1.01; }),
            refused + "kappa is 1.01, outside -1 to 1)");
}

TEST(ReportProvenance, AnEvaluationWithAKeyTwiceIsRefused) {
  // The classifier tables would show whichever of the two figures the parser kept.
  faultline::testing::TempDir dir;
  ds::Database db(dir.file("r.db"));
  fill(db);
  ReportOptions options;
  options.evaluation_path = dir.file("eval.json");
  faultline::common::write_file_atomically(options.evaluation_path,
                                           R"({"n": 4, "folds": 2, "n": 5, "symptom": {}})");
  try {
    load_report_data(db, options);
    FAIL() << "read";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()), options.evaluation_path +
                                         ": the key 'n' appears twice in one object; give the output of "
                                         "'faultline --json eval'");
  }
}
