// Issue text and URLs come from the internet; the report must show them, never run or interpret them.
#include <gtest/gtest.h>

#include "reports/findings.hpp"
#include "reports/html_report.hpp"
#include "reports/report_data.hpp"
#include "reports/table_formats.hpp"
#include "reports/tables.hpp"
#include "tests/reports/study_dataset.hpp"

using namespace faultline::reports;

namespace {

std::string html_with_case_url(const std::string& url) {
  auto data = faultline::testing::study_report_data();
  data.cases[0].url = url;
  return render_html(data, all_tables(data), compute_findings(data));
}

}  // namespace

TEST(HostileText, AJavascriptUrlIsShownAsTextNotAsALink) {
  std::string html = html_with_case_url("javascript:alert(document.domain)");
  EXPECT_EQ(html.find("href=\"javascript:"), std::string::npos);
  EXPECT_NE(html.find("<code class=\"unlinked-url\">javascript:alert(document.domain)</code>"),
            std::string::npos);
  // The same case with a GitHub URL is a link: the URL, not the case, decided.
  std::string github = html_with_case_url("https://github.com/NVIDIA/cutlass/issues/1");
  EXPECT_NE(github.find("<a href=\"https://github.com/NVIDIA/cutlass/issues/1\">"), std::string::npos);
}

TEST(HostileText, OnlyTheConfiguredHostsIssuePagesBecomeLinks) {
  // A look-alike host is not GitHub.
  EXPECT_EQ(html_with_case_url("https://github.com.evil.example/x").find("href=\"https://github.com.evil"),
            std::string::npos);
  auto data = faultline::testing::study_report_data();
  data.issue_link_host = issue_link_host("https://ghe.example.com/api/v3");
  EXPECT_EQ(data.issue_link_host, "https://ghe.example.com/");
  data.cases[0].url = "https://ghe.example.com/o/r/issues/1";
  std::string html = render_html(data, all_tables(data), compute_findings(data));
  EXPECT_NE(html.find("<a href=\"https://ghe.example.com/o/r/issues/1\">"), std::string::npos);
  EXPECT_EQ(issue_link_host(""), "https://github.com/");
  EXPECT_EQ(issue_link_host("https://api.github.com"), "https://github.com/");
}

TEST(HostileText, MarkdownCellsCannotAddColumnsOrRawHtml) {
  Table t;
  t.id = "x";
  t.title = "Titles";
  t.columns = {{"issue", "Issue", ColumnType::text}, {"title", "Title", ColumnType::text}};
  t.rows = {{{Value::of_text("o/r#1"), Value::of_text("a | b <img src=x onerror=alert(1)>")}}};
  std::string md = to_markdown(t);
  // Hand-escaped: the pipe is backslashed, the angle brackets are entities.
  EXPECT_NE(md.find("| o/r#1 | a \\| b &lt;img src=x onerror=alert(1)&gt; |"), std::string::npos) << md;
  EXPECT_EQ(md.find("<img"), std::string::npos);
}

TEST(HostileText, ReportCsvCellsAreFormulaSafe) {
  Table t;
  t.id = "x";
  t.title = "Titles";
  t.columns = {{"issue", "Issue", ColumnType::text},
               {"title", "Title", ColumnType::text},
               {"delta", "Delta", ColumnType::count}};
  t.rows = {{{Value::of_text("o/r#1"), Value::of_text("=HYPERLINK(\"http://x\")"), Value::of_count(-27)}}};
  EXPECT_EQ(to_csv(t), "issue,title,delta,row_kind\no/r#1,\"'=HYPERLINK(\"\"http://x\"\")\",-27,data\n");
}
