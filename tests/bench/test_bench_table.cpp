#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "common/text_file.hpp"
#include "tests/bench/bench_table.hpp"

namespace faultline::bench {
namespace {

const std::string kReadme = std::string(FAULTLINE_SOURCE_DIR) + "/README.md";
const std::string kResults = std::string(FAULTLINE_SOURCE_DIR) + "/tests/bench/results.json";

// The README's table is not typed by hand: it must be exactly what the committed figures render to, so an
// edit of one digit, or figures committed without their table, fails here.
TEST(BenchTable, ReadmeTableIsWhatTheCommittedResultsRender) {
  auto results = nlohmann::json::parse(common::read_text_file(kResults));
  EXPECT_EQ(table_in(common::read_text_file(kReadme)), render_table(results));
}

TEST(BenchTable, ReadmeWithOneDigitEditedNoLongerMatchesTheResults) {
  auto results = nlohmann::json::parse(common::read_text_file(kResults));
  std::string readme = common::read_text_file(kReadme);
  std::string table = table_in(readme);
  size_t digit = table.find_first_of("0123456789", table.find("`classify`"));
  ASSERT_NE(digit, std::string::npos);
  table[digit] = table[digit] == '9' ? '8' : static_cast<char>(table[digit] + 1);
  EXPECT_NE(table_in(with_table(readme, table)), render_table(results));
}

TEST(BenchTable, SplicingReplacesOnlyTheTextBetweenTheMarkers) {
  std::string readme = std::string("intro\n") + kTableBegin + "\nold table\n" + kTableEnd + "\noutro\n";
  EXPECT_EQ(with_table(readme, "| new |\n"),
            std::string("intro\n") + kTableBegin + "\n| new |\n" + kTableEnd + "\noutro\n");
  EXPECT_EQ(table_in(with_table(readme, "| new |\n")), "| new |\n");
}

TEST(BenchTable, ReadmeWithoutMarkersIsRejected) { EXPECT_THROW(table_in("no table here\n"), Error); }

TEST(BenchTable, ResultsMissingAFigureAreRejectedNamingIt) {
  auto results = nlohmann::json::parse(common::read_text_file(kResults));
  results["classify"].erase("fasttext_cli_seconds_100k");
  try {
    render_table(results);
    FAIL() << "rendered a table without the CLI's classify time";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("classify.fasttext_cli_seconds_100k"), std::string::npos);
  }
}

// Hand-worked: 100,000 documents in 5 s is 20,000 issues/s. The CLI's three models take 1 + 1 + 2 = 4 s
// (25,000 issues/s), so the ratio is 5 / 4 = 1.25; with the dimension model's 1 s more, 5 / 5 = 1.00.
TEST(BenchTable, ClassifyRowStatesRatesAndTheRatioOfTimes) {
  auto results = nlohmann::json::parse(common::read_text_file(kResults));
  results["classify"]["fasttext_cli_documents"] = 100000;
  results["classify"]["seconds_100k"] = 5.0;
  results["classify"]["fasttext_cli_seconds_100k"] = 5.0;
  results["classify"]["fasttext_cli_seconds_100k_by_model"] = {
      {"scope", 1.0}, {"symptom", 1.0}, {"root_cause", 2.0}, {"root_cause.group", 1.0}};
  std::string table = render_table(results);
  EXPECT_NE(table.find("20,000 issues/s"), std::string::npos);
  EXPECT_NE(table.find("the three models: 25,000 issues/s"), std::string::npos);
  EXPECT_NE(table.find("1.25× the CLI's time"), std::string::npos);
  EXPECT_NE(table.find("1.00× the four's"), std::string::npos);
}

// Hand-worked: train 3 s against the three final models' 0.5 + 0.25 + 0.75 = 1.5 s is 2.00×; against the
// four (2 s in all) 1.50×.
TEST(BenchTable, TrainRatioIsAgainstTheThreeModelsOfTheBaseline) {
  auto results = nlohmann::json::parse(common::read_text_file(kResults));
  results["train"]["seconds"] = 3.0;
  results["train"]["fasttext_cli_seconds"] = 2.0;
  results["train"]["fasttext_cli_seconds_by_model"] = {
      {"scope", 0.5}, {"symptom", 0.25}, {"root_cause", 0.75}, {"root_cause.group", 0.5}};
  std::string table = render_table(results);
  EXPECT_NE(table.find("the three final models (same settings): 1.50 s"), std::string::npos);
  EXPECT_NE(table.find("2.00× (target ≤ 2.5); 1.50× the four"), std::string::npos);
  results["train"]["fasttext_cli_seconds_by_model"].erase("symptom");
  EXPECT_THROW(render_table(results), Error);
}

// Hand-worked against the targets (macro-F1 ≥ 0.62, kappa ≥ 0.62, top 40% ≥ 0.85): 0.62 exactly meets its
// target, 0.619 misses it, 0.9 meets it.
TEST(BenchTable, AccuracyRowSaysWhichTargetsAreMet) {
  auto results = nlohmann::json::parse(common::read_text_file(kResults));
  results["accuracy_root_cause"] = {
      {"accuracy", 0.7}, {"macro_f1", 0.62}, {"kappa", 0.619}, {"top_40_accuracy", 0.9}};
  std::string table = render_table(results);
  EXPECT_NE(table.find("| 0.700 / 0.620 / 0.619 / 0.900 |"), std::string::npos) << table;
  EXPECT_NE(table.find("met: macro-F1, top 40%; not met: kappa"), std::string::npos) << table;
  // Everything below its target: none met.
  results["accuracy_root_cause"] = {
      {"accuracy", 0.5}, {"macro_f1", 0.5}, {"kappa", 0.5}, {"top_40_accuracy", 0.5}};
  EXPECT_NE(render_table(results).find("met: none; not met: macro-F1, kappa, top 40%"), std::string::npos);
  results["accuracy_root_cause"].erase("top_40_accuracy");
  EXPECT_THROW(render_table(results), Error);
}

// The line of the table that holds both `a` and `b`; empty if none does.
std::string line_with(const std::string& table, const std::string& a, const std::string& b) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(a) != std::string::npos && line.find(b) != std::string::npos) return line;
  }
  return "";
}

// The mean over thirty fold assignments has rows of its own, judged against the same targets as seed 7's:
// here seed 7 misses all three and the mean (hand-set) meets two.
TEST(BenchTable, TheThirtyFoldAssignmentsRowsReadTheirMeanNotSeed7s) {
  auto results = nlohmann::json::parse(common::read_text_file(kResults));
  results["accuracy_root_cause"] = {
      {"accuracy", 0.5}, {"macro_f1", 0.5}, {"kappa", 0.5}, {"top_40_accuracy", 0.5}};
  results["thirty_root_cause"] = {
      {"accuracy", 0.7}, {"macro_f1", 0.62}, {"kappa", 0.619}, {"top_40_accuracy", 0.9}};
  results["thirty"] = {{"fold_assignments", 30}};
  const std::string table = render_table(results);
  const std::string seed_7 = line_with(table, "(fold seed 7): root cause", "|");
  const std::string thirty = line_with(table, "the mean of 30 fold assignments: root cause", "|");
  EXPECT_NE(seed_7.find("| 0.500 / 0.500 / 0.500 / 0.500 |"), std::string::npos) << table;
  EXPECT_NE(seed_7.find("met: none"), std::string::npos) << seed_7;
  EXPECT_NE(thirty.find("| 0.700 / 0.620 / 0.619 / 0.900 |"), std::string::npos) << table;
  EXPECT_NE(thirty.find("met: macro-F1, top 40%; not met: kappa"), std::string::npos) << thirty;
  results.erase("thirty_root_cause");
  EXPECT_THROW(render_table(results), Error);
}

}  // namespace
}  // namespace faultline::bench
