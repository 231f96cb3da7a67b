#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>

#include "common/csv.hpp"
#include "common/markup_escape.hpp"
#include "common/text_file.hpp"
#include "reports/findings.hpp"
#include "reports/html_report.hpp"
#include "reports/report_writer.hpp"
#include "reports/table_display.hpp"
#include "reports/table_formats.hpp"
#include "reports/tables.hpp"
#include "tests/reports/study_dataset.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::reports;

namespace {

const std::vector<std::string>& row_named(const DisplayGrid& g, const std::string& first, size_t column = 0) {
  for (const auto& row : g.rows) {
    if (row[column] == first) return row;
  }
  static const std::vector<std::string> none;
  ADD_FAILURE() << "no row " << first;
  return none;
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST(Percent, RoundsHalfAwayFromZeroToTwoDecimals) {
  EXPECT_EQ(percent(82, 300), "27.33%");  // 27.333…
  EXPECT_EQ(percent(53, 300), "17.67%");  // 17.666…
  EXPECT_EQ(percent(1, 8), "12.50%");
  EXPECT_EQ(percent(1, 800), "0.13%");  // exactly 0.125 → away from zero
  EXPECT_EQ(percent(-1, 800), "-0.13%");
  EXPECT_EQ(percent(1, 600), "0.17%");
  EXPECT_EQ(percent(300, 300), "100.00%");
  EXPECT_EQ(percent(0, 0), "0.00%");
}

TEST(Fraction, IsTheShareAsAFractionWithSixDecimals) {
  EXPECT_EQ(fraction(82, 300), "0.273333");  // 0.27333…
  EXPECT_EQ(fraction(2, 3), "0.666667");
  EXPECT_EQ(fraction(1, 8), "0.125000");
  EXPECT_EQ(fraction(1, 2000000), "0.000001");  // exactly 0.0000005 → away from zero
  EXPECT_EQ(fraction(300, 300), "1.000000");
  EXPECT_EQ(fraction(0, 0), "0.000000");
}

TEST(StudyTables, SymptomTableReproducesTableTwo) {
  DisplayGrid t = display_grid(symptom_table(faultline::testing::study_report_data()));
  EXPECT_EQ(t.header[1], "Total No.");
  EXPECT_EQ(t.header[4], "FlashInfer Ratio");
  // Published ratios of Table II, in the paper's row order.
  EXPECT_EQ(t.rows[0][0], "Deployment Failure");
  EXPECT_EQ(t.rows[0][2], "27.33%");
  EXPECT_EQ(t.rows[1][2], "24.33%");
  EXPECT_EQ(t.rows[2][2], "21.00%");
  EXPECT_EQ(t.rows[3][2], "17.67%");
  EXPECT_EQ(t.rows[4][2], "7.67%");
  EXPECT_EQ(t.rows[5][0], "Hang");
  EXPECT_EQ(t.rows[5][2], "2.00%");
  // bitsandbytes deployment failures: 47 → 15.67%; total row: bitsandbytes 79 → 26.33%, Triton 77 → 25.67%.
  auto deploy = row_named(t, "Deployment Failure");
  EXPECT_EQ(deploy[deploy.size() - 2], "47");
  EXPECT_EQ(deploy.back(), "15.67%");
  auto total = row_named(t, "Total");
  EXPECT_EQ(total[1], "300");
  EXPECT_EQ(total.back(), "26.33%");
  EXPECT_EQ(total[8], "25.67%");  // Triton ratio column
}

TEST(StudyTables, RootCauseTableReproducesTableThree) {
  DisplayGrid t = display_grid(root_cause_table(faultline::testing::study_report_data()));
  std::vector<std::string> subtotals;
  for (const auto& row : t.rows) {
    if (row[1] == "Subtotal") subtotals.push_back(row[3]);
  }
  EXPECT_EQ(subtotals, (std::vector<std::string>{"39.67%", "27.00%", "33.33%"}));
  // Every category's published share, in the paper's order.
  const std::vector<std::string> shares = {"7.33%", "2.67%",  "1.33%",  "4.00%", "2.33%",
                                           "0.67%", "1.67%",  "3.33%",  "2.00%", "5.67%",
                                           "8.67%", "15.33%", "11.67%", "8.00%", "25.33%"};
  std::vector<std::string> got;
  for (const auto& row : t.rows) {
    if (row[1] != "Subtotal" && row[0] != "Total") got.push_back(row[3]);
  }
  EXPECT_EQ(got, shares);
  EXPECT_EQ(t.rows.back()[2], "300");
}

TEST(StudyTables, RootCauseByRepositoryEndsWithATotalRowOfTheRepositoriesIssues) {
  Table table = root_cause_by_repository_table(faultline::testing::study_report_data());
  DisplayGrid t = display_grid(table);
  ASSERT_EQ(t.rows.back()[0], "Total");
  EXPECT_EQ(t.kinds.back(), RowKind::total);
  // Published in Table II: bitsandbytes has 79 of the 300 issues, Triton 77.
  auto column = [&](const std::string& heading) {
    return std::find(t.header.begin(), t.header.end(), heading) - t.header.begin();
  };
  EXPECT_EQ(t.rows.back()[column("bitsandbytes")], "79");
  EXPECT_EQ(t.rows.back()[column("Triton")], "77");
  EXPECT_EQ(t.rows.back().back(), "300");
  // Without the Total row the last row is a root cause.
  EXPECT_EQ(t.kinds[t.rows.size() - 2], RowKind::data);
  // Markdown sets the Total row in bold, as it does for Root cause × symptom.
  std::string md = to_markdown(table);
  EXPECT_NE(
      md.find("\n| **Total** | **37** | **28** | **77** | **56** | **4** | **19** | **79** | **300** |\n"),
      std::string::npos)
      << md;
  EXPECT_NE(
      to_markdown(symptom_by_root_cause_table(faultline::testing::study_report_data())).find("| **Total** |"),
      std::string::npos);
}

TEST(StudyTables, FunnelTableReproducesTableOne) {
  Table table = funnel_table(faultline::testing::study_report_data());
  DisplayGrid t = display_grid(table);
  // The study's Table I (raw, candidate, final), with the sample after replacements as Sampled.
  EXPECT_EQ(row_named(t, "Triton"), (std::vector<std::string>{"Triton", "2205", "815", "77", "77"}));
  EXPECT_EQ(t.rows.back(), (std::vector<std::string>{"Total", "9099", "3181", "300", "300"}));
  EXPECT_NE(table.note.find("stratified draw"), std::string::npos) << table.note;
}

// A repository the store holds whose issues have no final label yet still has its row: the total row
// counts it, so without the row the rows would not add up to the total.
TEST(StudyTables, FunnelTableHasARowForARepositoryWithoutLabeledCases) {
  auto data = faultline::testing::study_report_data();
  faultline::funnel::FunnelRow unlabeled;
  unlabeled.repo = "example/kernels";
  unlabeled.raw = 10;
  unlabeled.candidates = 7;
  unlabeled.sampled = 3;
  data.funnel.rows.push_back(unlabeled);
  DisplayGrid t = display_grid(funnel_table(data));
  EXPECT_EQ(row_named(t, "example/kernels"),
            (std::vector<std::string>{"example/kernels", "10", "7", "3", "0"}));
  // The study's 9099 / 3181 / 300 / 300 and this repository's 10 / 7 / 3 / 0.
  EXPECT_EQ(t.rows.back(), (std::vector<std::string>{"Total", "9109", "3188", "303", "300"}));
  long long raw = 0;
  for (size_t r = 0; r + 1 < t.rows.size(); ++r) raw += std::stoll(t.rows[r][1]);
  EXPECT_EQ(raw, 9109);
}

TEST(Findings, AreComputedFromTheNumbers) {
  auto findings = compute_findings(faultline::testing::study_report_data());
  ASSERT_GE(findings.size(), 4u);
  // 82 + 73 = 155 of 300 = 51.67%.
  EXPECT_EQ(findings[0].rfind("155 of 300 issues (51.67%, more than half) fail before any kernel runs", 0),
            0u)
      << findings[0];
  // bitsandbytes: 47 of its 79 issues are deployment failures, more than half.
  EXPECT_NE(findings[4].find("most of them Deployment Failure (47 of 79)"), std::string::npos) << findings[4];
  EXPECT_NE(findings[2].find("Software Incompatibility (76; 25.33%)"), std::string::npos) << findings[2];
  EXPECT_NE(findings[2].find("Kernel Library (119; 39.67%)"), std::string::npos) << findings[2];
  // Compiler/build (81) + runtime (100) = 181 → 60.33%.
  EXPECT_NE(findings[3].find("181 issues (60.33%)"), std::string::npos) << findings[3];
}

namespace {

Table two_row_table() {
  Table t;
  t.id = "x";
  t.title = "A & B_c";
  t.columns = {{"name", "Name", ColumnType::text}, {"n", "Share", ColumnType::count}};
  t.rows = {{{Value::of_text("50%_ok"), Value::of_count(1)}},
            {{Value::of_text("Total"), Value::of_count(2)}, RowKind::total}};
  return t;
}

}  // namespace

TEST(Formats, LatexUsesBooktabsAndEscapes) {
  Table t = two_row_table();
  std::string tex = to_latex(t);
  EXPECT_NE(tex.find("\\toprule"), std::string::npos);
  EXPECT_NE(tex.find("\\bottomrule"), std::string::npos);
  EXPECT_NE(tex.find("\\caption{A \\& B\\_c}"), std::string::npos);
  EXPECT_NE(tex.find("50\\%\\_ok & 1 \\\\"), std::string::npos);
  EXPECT_NE(tex.find("\\begin{tabular}{lr}"), std::string::npos) << tex;  // text left, numbers right
  EXPECT_EQ(to_csv(t), "name,n,row_kind\n50%_ok,1,data\nTotal,2,total\n");
  EXPECT_NE(to_markdown(t).find("| **Total** | **2** |"), std::string::npos);
  EXPECT_NE(to_markdown(t).find("|:---|---:|"), std::string::npos);
}

// GitHub allows a repository named a--b; TeX would set its -- as an en dash, '' as a closing quote and <<
// as a guillemet (T1). A lone - (a negative number) and other text stay as they are.
TEST(Formats, LatexKeepsApartThePairsTeXSetsAsOneGlyph) {
  EXPECT_EQ(latex_escape("evil/a--b"), "evil/a-{}-b");
  EXPECT_EQ(latex_escape("a---b ``q'' <<x>> !`"), "a-{}-{}-b `{}`q'{}' <{}<x>{}> !{}`");
  EXPECT_EQ(latex_escape("-0.027 a-b it's"), "-0.027 a-b it's");
}

// Markdown is read as source and rendered as HTML: a table's | and \ are escaped, line breaks become spaces,
// raw HTML is shown as text, and the characters a page would act on (an escape, a right-to-left override)
// are dropped, while quotes stay as typed.
TEST(Formats, MarkdownEscapesItsOwnMarksAndDropsWhatAPageWouldActOn) {
  EXPECT_EQ(faultline::common::markdown_escape("a|b\\c <x> & \"q\" it's\r\nd\x1b[31m\xE2\x80\xAE"
                                               "e"),
            "a\\|b\\\\c &lt;x&gt; &amp; \"q\" it's  d[31me");
}

TEST(Formats, CsvIsTidyWithIdsFractionsAndMarkedTotals) {
  std::string csv = to_csv(symptom_table(faultline::testing::study_report_data()));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "symptom_id,symptom,repository_id,repository,count,share,row_kind");
  // Table II: bitsandbytes has 47 deployment failures of the 300 issues, 47/300 = 0.156667.
  EXPECT_NE(
      csv.find("\ndeployment_failure,Deployment Failure,bitsandbytes-foundation/bitsandbytes,bitsandbytes,"
               "47,0.156667,data\n"),
      std::string::npos);
  EXPECT_NE(csv.find("\ndeployment_failure,Deployment Failure,,Total,82,0.273333,total\n"),
            std::string::npos);
  EXPECT_NE(csv.find("\n,Total,,Total,300,1.000000,total\n"), std::string::npos);
  EXPECT_EQ(csv.find('%'), std::string::npos);
  // The data rows are the 42 (symptom, repository) cells and add up to the 300 issues.
  auto rows = faultline::common::parse_csv(csv, "table2.csv");
  int cells = 0, sum = 0;
  for (size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].fields[6] != "data") continue;
    ++cells;
    sum += std::stoi(rows[r].fields[4]);
  }
  EXPECT_EQ(cells, 42);
  EXPECT_EQ(sum, 300);
}

TEST(Formats, JsonTablesHoldNumbersUnderColumnIds) {
  auto json = to_json(root_cause_table(faultline::testing::study_report_data()));
  const auto& first = json["rows"][0];
  // Table III's first row: Code Logic Error, 22 of 300.
  EXPECT_EQ(first["root_cause_id"], "code_logic_error");
  EXPECT_EQ(first["dimension_id"], "kernel_library");
  ASSERT_TRUE(first["count"].is_number_integer());
  EXPECT_EQ(first["count"], 22);
  ASSERT_TRUE(first["share"].is_number_float());
  EXPECT_DOUBLE_EQ(first["share"].get<double>(), 22.0 / 300.0);
  EXPECT_EQ(first["row_kind"], "data");
  EXPECT_EQ(json["rows"].back()["row_kind"], "total");
  EXPECT_EQ(json["columns"][4]["type"], "count");
}

TEST(Formats, LatexSplitsTableTwoAndKeepsTheStudysNumberOutOfCaptions) {
  auto data = faultline::testing::study_report_data();
  std::string tex = to_latex(symptom_table(data));
  // 16 number columns (Total and 7 repositories, No. and Ratio each) in two blocks of 8.
  EXPECT_EQ(count(tex, "\\begin{tabular}{lrrrrrrrr}"), 2u) << tex;
  EXPECT_NE(tex.find("\\begin{table*}"), std::string::npos);
  for (const auto& t : all_tables(data)) {
    EXPECT_EQ(to_latex(t).find("(Table"), std::string::npos) << t.id;
    // Without the split, a table wider than the line is shrunk, never set past the margin.
    EXPECT_NE(to_latex(t).find("\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}"), std::string::npos)
        << t.id;
  }
  EXPECT_EQ(count(to_latex(funnel_table(data)), "\\begin{tabular}{lrrrr}"), 1u);
}

TEST(Html, ChartsHaveOneMarkPerDatum) {
  auto data = faultline::testing::study_report_data();
  std::string html = render_html(data, all_tables(data), compute_findings(data));
  // Non-empty (repository, symptom) pairs of Table II: 42 cells minus the 5 zeros
  // (DeepGEMM deployment/performance/hang, xFormers hang, bitsandbytes hang) = 37.
  EXPECT_EQ(count(html, "class=\"bar\""), 37u);
  EXPECT_EQ(count(html, "class=\"cell\""), 15u * 6u);
  EXPECT_EQ(count(html, "class=\"funnel-bar\""), 4u);  // raw, candidate, sampled, final
  EXPECT_EQ(count(html, "class=\"share-bar\""), 21u * 2u);
  EXPECT_EQ(count(html, "<script"), 0u);
  EXPECT_NE(html.find("href=\"https://github.com/NVIDIA/cutlass/issues/"), std::string::npos);
}

// The buggy and the fixed variant's outcomes may stand in different modes (a fix failing on the host under
// a GPU reproduction): each says its own.
TEST(Html, AReproducersRowSaysTheModeOfEachVariantsOutcome) {
  auto data = faultline::testing::study_report_data();
  data.reproducers["bool-index"] = {"t", "code_logic_error", "reproduced", "fail", "gpu", "host"};
  const std::string html = render_html(data, all_tables(data), compute_findings(data));
  const size_t row = html.find("<tr id=\"repro-bool-index\">");
  ASSERT_NE(row, std::string::npos);
  const std::string cells = html.substr(row, html.find("</tr>", row) - row);
  EXPECT_NE(cells.find("<span class=\"outcome-reproduced\">reproduced</span> (gpu)</td><td><span "
                       "class=\"outcome-fail\">fail</span> (host)</td>"),
            std::string::npos)
      << cells;
}

TEST(Html, TheWrittenPageIsThePageRenderedWhole) {
  // write_report hands the page to its file in pieces, gathered into writes of some size; the file must be
  // the page as render_html joins it, here longer than any gathering.
  auto data = faultline::testing::study_report_data();
  const std::string page = render_html(data, all_tables(data), compute_findings(data));
  ASSERT_GT(page.size(), 65536u);
  faultline::testing::TempDir dir;
  write_report(data, dir.file("r"), {"html"});
  EXPECT_EQ(faultline::common::read_text_file(dir.file("r/index.html")), page);
}

namespace {

// Three reproducers: two for code_logic_error (a crash and a wrong result), one for performance_bug.
const std::vector<faultline::datasets::CatalogEntry> kCatalog = {
    {"bool-index", "t", "crash", "code_logic_error", {"https://github.com/o/r/issues/7"}},
    {"causal-mask", "t", "incorrect_functionality", "code_logic_error", {}},
    {"recompile", "t", "performance_degradation", "performance_bug", {}}};

Case case_of(const std::string& symptom, const std::string& root_cause) {
  return Case{"o/r#1",  "o/r", 1, "https://github.com/o/r/issues/1", "", symptom, root_cause,
              "agreed", 1.0,   {}};
}

}  // namespace

TEST(CaseReproducers, SourceLinksFirstThenTheRootCauseWithTheSameSymptomPreferred) {
  // A case modeled by a reproducer keeps only that link, whatever its label.
  EXPECT_EQ(case_reproducers(case_of("hang", "code_logic_error"), {"recompile"}, kCatalog),
            (std::vector<CaseReproducer>{{"recompile", "source"}}));
  // A link to a reproducer the catalog does not hold counts for nothing.
  EXPECT_EQ(case_reproducers(case_of("hang", "code_logic_error"), {"graph-sync"}, kCatalog),
            (std::vector<CaseReproducer>{{"bool-index", "related"}}));
  // Same root cause and same symptom: causal-mask, although bool-index comes first by id.
  EXPECT_EQ(case_reproducers(case_of("incorrect_functionality", "code_logic_error"), {}, kCatalog),
            (std::vector<CaseReproducer>{{"causal-mask", "related"}}));
  // No reproducer has the symptom: the first of the root cause.
  EXPECT_EQ(case_reproducers(case_of("hang", "code_logic_error"), {}, kCatalog),
            (std::vector<CaseReproducer>{{"bool-index", "related"}}));
  // No reproducer exercises the root cause: no link.
  EXPECT_TRUE(case_reproducers(case_of("crash", "api_misuse"), {}, kCatalog).empty());
}

TEST(Findings, SayMostOnlyAboveHalf) {
  // 2 of 4 issues fail before a kernel runs (exactly half), and 2 of the repository's 4 are crashes.
  ReportData data;
  for (const char* symptom : {"crash", "crash", "build_failure", "deployment_failure"}) {
    data.cases.push_back(case_of(symptom, "code_logic_error"));
  }
  auto findings = compute_findings(data);
  EXPECT_EQ(findings[0].rfind("2 of 4 issues (50.00%) fail before any kernel runs", 0), 0u) << findings[0];
  EXPECT_NE(findings[4].find("most often Crash (2 of 4)"), std::string::npos) << findings[4];
  // One more crash: 3 of 5 is more than half.
  data.cases.push_back(case_of("crash", "code_logic_error"));
  findings = compute_findings(data);
  EXPECT_NE(findings[4].find("most of them Crash (3 of 5)"), std::string::npos) << findings[4];
}

TEST(Findings, NameEveryCategoryTiedForTheMost) {
  // Two crashes from a code logic error (kernel library), two hangs from a build misconfiguration (compiler
  // and build system): symptoms, root causes and dimensions each tied two and two, named in id order.
  ReportData data;
  for (int i = 0; i < 2; ++i) {
    data.cases.push_back(case_of("crash", "code_logic_error"));
    data.cases.push_back(case_of("hang", "build_misconfiguration"));
  }
  auto findings = compute_findings(data);
  EXPECT_EQ(findings[1], "The most frequent symptoms are Crash and Hang with 2 issues each (50.00%).");
  EXPECT_EQ(findings[4],
            "o/r contributes the most issues (4; 100.00%), most often Crash and Hang (2 each of 4).");
  EXPECT_EQ(findings[2],
            "The largest root causes are Build Misconfiguration and Code Logic Error (2 each; 50.00%); the "
            "largest dimensions are Compiler and Build System and Kernel Library (2 each; 50.00%).");
  data.cases.push_back(case_of("crash", "code_logic_error"));  // one more: no tie
  findings = compute_findings(data);
  EXPECT_EQ(findings[1], "The most frequent symptom is Crash with 3 issues (60.00%).");
  EXPECT_EQ(findings[4], "o/r contributes the most issues (5; 100.00%), most of them Crash (3 of 5).");
  EXPECT_EQ(
      findings[2],
      "The largest root cause is Code Logic Error (3; 60.00%); the largest dimension is Kernel Library (3; "
      "60.00%).");
}

// A report removes the files an earlier one wrote of the tables it does not hold: those of
// optional_table_ids, never one of the seven every report holds.
TEST(ReportTables, TheOptionalTablesAreThoseAReportHoldsOnlySometimes) {
  const auto& optional = optional_table_ids();
  auto is_optional = [&](const std::string& id) {
    return std::find(optional.begin(), optional.end(), id) != optional.end();
  };
  ReportData data;
  data.cases.push_back(case_of("crash", "api_misuse"));
  const auto always = all_tables(data);
  EXPECT_EQ(always.size(), 7u);
  for (const auto& t : always) EXPECT_FALSE(is_optional(t.id)) << t.id;
  data.predicted_cases.push_back(case_of("hang", "api_misuse"));
  const auto predicted = prediction_tables(data);
  ASSERT_EQ(predicted.size(), 2u);
  for (const auto& t : predicted) EXPECT_TRUE(is_optional(t.id)) << t.id;
}

TEST(Findings, RepositoriesTiedForTheMostAreNamedTogetherWithoutASymptom) {
  // o/r: two crashes; p/q: two hangs. 2 of 4 each.
  ReportData data;
  for (int i = 0; i < 2; ++i) {
    data.cases.push_back(case_of("crash", "code_logic_error"));
    Case other = case_of("hang", "code_logic_error");
    other.repo = "p/q";
    data.cases.push_back(other);
  }
  EXPECT_EQ(compute_findings(data)[4], "o/r and p/q contribute the most issues (2 each; 50.00%).");
  data.cases.push_back(case_of("hang", "code_logic_error"));  // the trigger removed: o/r has 3 of 5
  EXPECT_EQ(compute_findings(data)[4],
            "o/r contributes the most issues (3; 60.00%), most of them Crash (2 of 3).");
}

TEST(CaseReproducers, CoverageTableAndFindingCountLinkedCases) {
  ReportData data;
  for (const auto& e : kCatalog) {
    data.reproducers[e.id].root_cause = e.root_cause;
    data.reproducers[e.id].fixed = "pass";
  }
  data.reproducers["causal-mask"].fixed = "fail";
  data.reproducers["bool-index"].buggy = "reproduced";  // code logic, like causal-mask: one root cause
  data.reproducers["causal-mask"].buggy = "reproduced";
  // Worked by hand: 3 code-logic cases (all linked), 1 performance case (linked), 2 API-misuse cases (none).
  std::vector<std::pair<std::string, std::string>> labels = {
      {"crash", "code_logic_error"}, {"hang", "code_logic_error"}, {"crash", "code_logic_error"},
      {"hang", "performance_bug"},   {"crash", "api_misuse"},      {"crash", "api_misuse"}};
  for (const auto& [symptom, root_cause] : labels) {
    Case c = case_of(symptom, root_cause);
    c.reproducers = case_reproducers(c, {}, kCatalog);
    data.cases.push_back(c);
  }
  data.cases[0].reproducers = {{"bool-index", "source"}};
  DisplayGrid t = display_grid(reproducer_coverage_table(data));
  // By hand: code logic has 3 cases, 1 with the reproducer modeled on it and 2 with a related one only.
  EXPECT_EQ(
      row_named(t, "Code Logic Error"),
      (std::vector<std::string>{"Code Logic Error", "3", "1", "2", "2", "bool-index, causal-mask", "1"}));
  EXPECT_EQ(row_named(t, "API Misuse"),
            (std::vector<std::string>{"API Misuse", "2", "0", "0", "0", "", "0"}));
  EXPECT_EQ(t.rows.back(), (std::vector<std::string>{"Total", "6", "1", "3", "3", "", "2"}));
  auto findings = compute_findings(data);
  EXPECT_NE(findings.back().find(
                "1 of 6 cases have a reproducer modeled on them; for 1 of 15 root causes a reproducer "
                "reproduced its bug in the latest suite run"),
            std::string::npos)
      << findings.back();
}

TEST(CaseReproducers, AManifestNamingTheIssueMakesItsReproducerModeledOnTheCase) {
  Case c = case_of("hang", "performance_bug");
  c.repo = "O/R";  // GitHub compares repository names without regard to case
  c.number = 7;
  EXPECT_EQ(case_reproducers(c, {}, kCatalog), (std::vector<CaseReproducer>{{"bool-index", "source"}}));
  c.number = 70;  // issues/7 is not issues/70
  EXPECT_EQ(case_reproducers(c, {}, kCatalog), (std::vector<CaseReproducer>{{"recompile", "related"}}));
  EXPECT_TRUE(names_issue("https://github.com/o/r/issues/7#issuecomment-1", "o/r", 7));
  EXPECT_FALSE(names_issue("https://github.com/o/r/issues/77", "o/r", 7));
  EXPECT_FALSE(names_issue("https://github.com/o/r2/issues/7", "o/r", 7));
  EXPECT_TRUE(names_issue("https://github.com/O/R/issues/7?x=1", "o/r", 7));
  EXPECT_FALSE(names_issue("https://github.com/o/r/pull/7", "o/r", 7));  // a pull request is not the case
  // A closing '/', which a manifest may have (common::read_issue_link, the reader both share).
  EXPECT_TRUE(names_issue("https://github.com/o/r/issues/7/", "o/r", 7));
  EXPECT_FALSE(names_issue("https://github.com/o/r/issues/7//", "o/r", 7));
  EXPECT_FALSE(names_issue("javascript:x//github.com/o/r/issues/7", "o/r", 7));
}

TEST(ReportSummary, ARootCauseCountsOnlyWhenOneOfItsReproducersReproduced) {
  // Two labeled root causes; the catalog covers both, but only code logic's reproducer reproduced. By hand:
  // 1 of 2. Once api misuse's reproducer reproduces too: 2 of 2; with no suite result at all: 0 of 2.
  ReportData data;
  data.cases = {case_of("crash", "code_logic_error"), case_of("crash", "api_misuse")};
  data.reproducers["bool-index"] = {"t", "code_logic_error", "reproduced", "pass", "host", "host"};
  data.reproducers["api-check"] = {"t", "api_misuse", "built", "built", "build", "build"};
  faultline::testing::TempDir dir;
  auto summary = write_report(data, dir.file("r1"), {"json"});
  EXPECT_EQ(summary.root_causes_labeled, 2);
  EXPECT_EQ(summary.root_causes_reproduced, 1);
  data.reproducers["api-check"].buggy = "reproduced";
  EXPECT_EQ(write_report(data, dir.file("r2"), {"json"}).root_causes_reproduced, 2);
  for (auto& [id, status] : data.reproducers) status.buggy.clear();
  EXPECT_EQ(write_report(data, dir.file("r3"), {"json"}).root_causes_reproduced, 0);
}
