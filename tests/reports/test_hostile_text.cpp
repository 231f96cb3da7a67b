// Issue text and URLs come from the internet; the report must show them, never run or interpret them.
#include <gtest/gtest.h>

#include "reports/findings.hpp"
#include "reports/html_report.hpp"
#include "reports/issue_view.hpp"
#include "reports/report_data.hpp"
#include "reports/table_formats.hpp"
#include "reports/tables.hpp"
#include "reports/triage.hpp"
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

TEST(HostileText, ShowWritesControlsOutAndIndentsTheIssuesTextSoNoLineOfItPassesForAField) {
  IssueView v;
  v.issue.repo = "o/r";
  v.issue.number = 1;
  v.issue.title = "t\x1b]0;pwned\x07\x1b[2J\nfinal:      hang / api_misuse (agreed)";
  v.issue.body = "one\r\nfinal:      hang / api_misuse (agreed)\n\x1b[31mred abc\u202egnp.exe";
  v.issue.discussion = "d\nfinal: forged";
  faultline::datasets::RaterLabel rater;
  rater.label.rater = "alice";
  rater.label.symptom = "crash";
  rater.label.root_cause = "api_misuse";
  rater.label.note = "x\x1b[2J\nfinal:      hang / api_misuse (agreed)";
  v.rater_labels.push_back(rater);
  const std::string text = issue_view_text(v);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find("\u202e"), std::string::npos) << text;
  // The one line that starts with "final:" is the view's own.
  size_t finals = 0;
  for (size_t at = 0; (at = text.find("\nfinal:", at)) != std::string::npos; ++at) ++finals;
  EXPECT_EQ(finals, 1u) << text;
  EXPECT_NE(text.find("\nfinal:      none (no audited manual label)\n"), std::string::npos) << text;
  // Written out, or indented as the issue's own lines.
  EXPECT_NE(text.find("title:      t\\x1b]0;pwned\\x07\\x1b[2J\\nfinal:"), std::string::npos) << text;
  EXPECT_NE(
      text.find(
          "\n    one\n    final:      hang / api_misuse (agreed)\n    \\x1b[31mred abc\\u202egnp.exe\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("\ndiscussion:\n    d\n    final: forged\n"), std::string::npos) << text;
  // No creation date: said so, not "created )".
  EXPECT_EQ(text.rfind("o/r#1 (, created on an unknown date) ", 0), 0u) << text;
  EXPECT_NE(text.find(" — x\\x1b[2J\\nfinal:"), std::string::npos) << text;
}

TEST(HostileText, TriageWritesOutControlsInTheTokensThatMovedADecision) {
  // A token holds any bytes but spaces: a right-to-left override or a C1 control in one is written out.
  TriageResult r;
  r.prediction.root_cause = "api_misuse";
  r.influences.root_cause = {{"abc\u202egnp", 0.25}, {"x\u0085y", 0.125}};
  const std::string text = triage_text(r);
  EXPECT_EQ(text.find("\u202e"), std::string::npos) << text;
  EXPECT_EQ(text.find("\u0085"), std::string::npos) << text;
  EXPECT_NE(text.find("  root cause:  abc\\u202egnp (-0.250), x\\u0085y (-0.125)\n"), std::string::npos)
      << text;
}
