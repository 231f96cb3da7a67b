#include <gtest/gtest.h>

#include "common/issue_url.hpp"

using faultline::common::issue_url;
using faultline::common::issue_url_problem;

TEST(IssueUrl, TheDefaultPageIsOnGithubCom) {
  EXPECT_EQ(issue_url("NVIDIA/cutlass", 1270), "https://github.com/NVIDIA/cutlass/issues/1270");
}

// The rules of common/issue_url.hpp, each near miss breaking one.
TEST(IssueUrl, TheIssuesOwnPagesAreAccepted) {
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/issues/1270", "NVIDIA/cutlass", 1270), "");
  EXPECT_EQ(issue_url_problem("https://github.com/nvidia/CUTLASS/issues/1270", "NVIDIA/cutlass", 1270), "");
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/pull/1270", "NVIDIA/cutlass", 1270), "");
  EXPECT_EQ(issue_url_problem("http://ghe.example.com:8443/o/r/issues/7", "o/r", 7), "");
}

TEST(IssueUrl, PagesOfOtherIssuesAndOtherThingsAreRefused) {
  const std::string path = "its path is not NVIDIA/cutlass/issues/12 (or /pull/12)";
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/issues/123", "NVIDIA/cutlass", 12), path);
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/issues/1", "NVIDIA/cutlass", 12), path);
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/issues/12/", "NVIDIA/cutlass", 12), path);
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/issues/12#x", "NVIDIA/cutlass", 12), path);
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlas/issues/12", "NVIDIA/cutlass", 12), path);
  EXPECT_EQ(issue_url_problem("https://github.com/NVIDIA/cutlass/discussions/12", "NVIDIA/cutlass", 12),
            path);
  EXPECT_EQ(issue_url_problem("https://github.com/x/NVIDIA/cutlass/issues/12", "NVIDIA/cutlass", 12), path);
  EXPECT_EQ(issue_url_problem("javascript:alert(1)//github.com/o/r/issues/1", "o/r", 1),
            "it does not start with https:// or http://");
  EXPECT_EQ(issue_url_problem("ftp://github.com/o/r/issues/1", "o/r", 1),
            "it does not start with https:// or http://");
  EXPECT_EQ(issue_url_problem("https:///o/r/issues/1", "o/r", 1), "it has no host");
  EXPECT_EQ(issue_url_problem("https://git<b>hub.com/o/r/issues/1", "o/r", 1),
            "its host may hold only letters, digits, '.' and '-'");
  EXPECT_EQ(issue_url_problem("https://user@github.com/o/r/issues/1", "o/r", 1),
            "its host may hold only letters, digits, '.' and '-'");
  EXPECT_EQ(issue_url_problem("https://github.com:x/o/r/issues/1", "o/r", 1), "its port is not a number");
  EXPECT_EQ(issue_url_problem("https://github.com:/o/r/issues/1", "o/r", 1), "its port is not a number");
  EXPECT_EQ(issue_url_problem("https://github.com", "o/r", 1), "it has no path");
}
