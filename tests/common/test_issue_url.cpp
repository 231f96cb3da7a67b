#include <gtest/gtest.h>

#include <vector>

#include "common/issue_url.hpp"

using faultline::common::issue_url;
using faultline::common::issue_url_problem;
using faultline::common::read_issue_page;

TEST(IssueUrl, TheDefaultPageIsOnGithubCom) {
  EXPECT_EQ(issue_url("NVIDIA/cutlass", 1270), "https://github.com/NVIDIA/cutlass/issues/1270");
}

TEST(IssueUrl, APageIsReadIntoItsParts) {
  const auto page = read_issue_page("http://ghe.example.com:8443/O/R/pull/7");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->host, "ghe.example.com:8443");
  EXPECT_EQ(page->repo, "O/R");
  EXPECT_TRUE(page->pull_request);
  EXPECT_EQ(page->number, "7");
  EXPECT_FALSE(read_issue_page("https://github.com/o/r/issues/7#issuecomment-1"));
}

// The rules of common/issue_url.hpp, each near miss breaking one.
TEST(IssueUrl, AnIssuesPageOnAnyHostAndUnderAnyOfItsRepositorysNamesIsAccepted) {
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/issues/1270", 1270), "");
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/pull/1270", 1270), "");
  EXPECT_EQ(issue_url_problem("http://ghe.example.com:8443/o/r/issues/7", 7), "");
  EXPECT_EQ(issue_url_problem("http://ghe.example.com:65535/o/r/issues/7", 7), "");       // the highest port
  EXPECT_EQ(issue_url_problem("https://github.com/old-owner/old.name/issues/7", 7), "");  // before a rename
}

TEST(IssueUrl, PagesOfOtherIssuesAndOtherThingsAreRefused) {
  struct Case {
    const char* url;
    int64_t number;
    const char* problem;
  };
  for (const Case& c : std::vector<Case>{
           {"https://github.com/NVIDIA/cutlass/issues/123", 12, "it is the page of issue 123, not of 12"},
           {"https://github.com/NVIDIA/cutlass/issues/1", 12, "it is the page of issue 1, not of 12"},
           {"https://github.com/NVIDIA/cutlass/issues/12/", 12,
            "its path is not OWNER/NAME/issues/NUMBER (or /pull/NUMBER)"},
           {"https://github.com/NVIDIA/cutlass/issues/12#x", 12, "its path does not end in a number"},
           {"https://github.com/NVIDIA/cutlass/issues/", 12, "its path does not end in a number"},
           {"https://github.com/NVIDIA/cutlass/discussions/12", 12,
            "its path is not OWNER/NAME/issues/NUMBER (or /pull/NUMBER)"},
           {"https://github.com/o/issues/12", 12,
            "its path does not begin with a repository's OWNER/NAME (there is no '/')"},
           {"https://github.com/x/NVIDIA/cutlass/issues/12", 12,
            "its path does not begin with a repository's OWNER/NAME (the repository name may hold only "
            "letters, digits, '.', '_' and '-')"},
           {"https://github.com/issues/12", 12, "its path is not OWNER/NAME/issues/NUMBER"},
           {"https://github.com/", 12, "its path is not OWNER/NAME/issues/NUMBER"},
           {"javascript:alert(1)//github.com/o/r/issues/1", 1, "it does not start with https:// or http://"},
           {"ftp://github.com/o/r/issues/1", 1, "it does not start with https:// or http://"},
           {"https:///o/r/issues/1", 1, "it has no host"},
           {"https://git<b>hub.com/o/r/issues/1", 1, "its host may hold only letters, digits, '.' and '-'"},
           {"https://user@github.com/o/r/issues/1", 1, "it has a user name or password before its host"},
           {"https://github.com:443@evil.example/o/r/issues/1", 1,
            "it has a user name or password before its host"},
           {"https://github.com:x/o/r/issues/1", 1, "its port is not a number"},
           {"https://github.com:/o/r/issues/1", 1, "its port is not a number"},
           {"https://github.com:99999/o/r/issues/1", 1, "its port is past 65535"},
           {"https://github.com", 1, "it has no path"},
       }) {
    EXPECT_EQ(issue_url_problem(c.url, c.number), c.problem) << c.url;
  }
}
