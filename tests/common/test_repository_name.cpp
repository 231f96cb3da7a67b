#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "common/repository_name.hpp"

using faultline::common::is_repository_name;
using faultline::common::parse_issue_key;
using faultline::common::repository_name_problem;

// Examples follow GitHub's rules as stated in common/repository_name.hpp; each near miss breaks one rule.
TEST(RepositoryName, AcceptsTheStudysRepositoriesAndGitHubsEdgeCases) {
  EXPECT_TRUE(is_repository_name("flashinfer-ai/flashinfer"));
  EXPECT_TRUE(is_repository_name("NVIDIA/cutlass"));
  EXPECT_TRUE(is_repository_name("TimDettmers/bitsandbytes"));
  EXPECT_TRUE(is_repository_name("a/b"));
  EXPECT_TRUE(is_repository_name("a-b-c/x.y_z-1"));
  EXPECT_TRUE(is_repository_name("o/.github"));  // a leading dot is allowed; only "." and ".." are not
  EXPECT_TRUE(is_repository_name("o/..."));
  EXPECT_TRUE(is_repository_name(std::string(39, 'o') + "/" + std::string(100, 'r')));
}

TEST(RepositoryName, RejectsNearMissesOfTheOwnerRules) {
  EXPECT_EQ(repository_name_problem("cutlass"), "there is no '/'");
  EXPECT_EQ(repository_name_problem("/cutlass"), "the owner is empty");
  EXPECT_EQ(repository_name_problem(std::string(40, 'o') + "/r"), "the owner is longer than 39 characters");
  EXPECT_EQ(repository_name_problem("-nvidia/cutlass"), "the owner starts or ends with '-'");
  EXPECT_EQ(repository_name_problem("nvidia-/cutlass"), "the owner starts or ends with '-'");
  EXPECT_EQ(repository_name_problem("nv--idia/cutlass"), "the owner has two '-' in a row");
  EXPECT_EQ(repository_name_problem("nv_idia/cutlass"), "the owner may hold only letters, digits and '-'");
  EXPECT_EQ(repository_name_problem("nv.idia/cutlass"), "the owner may hold only letters, digits and '-'");
}

TEST(RepositoryName, RejectsNearMissesOfTheRepositoryRules) {
  EXPECT_EQ(repository_name_problem("NVIDIA/"), "the repository name is empty");
  EXPECT_EQ(repository_name_problem("o/" + std::string(101, 'r')),
            "the repository name is longer than 100 characters");
  EXPECT_EQ(repository_name_problem("o/."), "the repository name cannot be '.' or '..'");
  EXPECT_EQ(repository_name_problem("o/.."), "the repository name cannot be '.' or '..'");
  const std::string chars = "the repository name may hold only letters, digits, '.', '_' and '-'";
  EXPECT_EQ(repository_name_problem("NVIDIA/cut lass"), chars);
  EXPECT_EQ(repository_name_problem("NVIDIA/cutlass/extra"), chars);
  EXPECT_EQ(repository_name_problem("NVIDIA/cutlass#12"), chars);
}

TEST(RepositoryName, RequireNamesWhereAndWhy) {
  try {
    faultline::common::require_repository_name("nvidia-/cutlass", "f.jsonl:3");
    FAIL() << "expected an error";
  } catch (const faultline::Error& e) {
    EXPECT_STREQ(e.what(),
                 "f.jsonl:3: repo 'nvidia-/cutlass' is not of the form OWNER/NAME (the owner starts or ends "
                 "with '-')");
  }
  EXPECT_NO_THROW(faultline::common::require_repository_name("NVIDIA/cutlass", "f.jsonl:3"));
}

TEST(RepositoryName, NamesThatDifferOnlyInCaseAreTheSameRepository) {
  using faultline::common::same_repository_name;
  EXPECT_TRUE(same_repository_name("NVIDIA/cutlass", "nvidia/CUTLASS"));
  EXPECT_TRUE(same_repository_name("a-b/c.d_e", "A-B/C.D_E"));
  EXPECT_FALSE(same_repository_name("NVIDIA/cutlass", "NVIDIA/cutlas"));
  EXPECT_FALSE(same_repository_name("NVIDIA/cutlass", "NVIDIA/cutlasz"));
  EXPECT_EQ(faultline::common::folded_repository_name("NVIDIA/CuTlass-2.x#7"), "nvidia/cutlass-2.x#7");
  EXPECT_FALSE(same_repository_name("NVIDIA/cutlass", "NVIDIA/cutlass2"));
  // Only A-Z fold: '@' (0x40) and '`' (0x60) are 0x20 apart as 'A' and 'a' are, but not one letter.
  EXPECT_FALSE(same_repository_name("a/b@", "a/b`"));
}

TEST(IssueKey, SplitsRepositoryAndNumber) {
  auto key = parse_issue_key("NVIDIA/cutlass#1270");
  EXPECT_EQ(key.repo, "NVIDIA/cutlass");
  EXPECT_EQ(key.number, 1270);
  EXPECT_EQ(parse_issue_key("o/r.x#1").number, 1);
}

TEST(IssueKey, RejectsBadShapesNamingTheKey) {
  auto message = [](const std::string& key) {
    try {
      parse_issue_key(key);
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("NVIDIA/cutlass"),
            "issue 'NVIDIA/cutlass': expected OWNER/NAME#NUMBER, e.g. NVIDIA/cutlass#1270");
  EXPECT_EQ(message("cutlass#12"),
            "issue 'cutlass#12': repo 'cutlass' is not of the form OWNER/NAME (there is no '/')");
  EXPECT_EQ(message("-x/y#12"),
            "issue '-x/y#12': repo '-x/y' is not of the form OWNER/NAME (the owner starts or ends with '-')");
  const std::string number = "': the part after '#' must be a positive issue number";
  EXPECT_EQ(message("a/b#"), "issue 'a/b#" + number);
  EXPECT_EQ(message("a/b#0"), "issue 'a/b#0" + number);
  EXPECT_EQ(message("a/b#-3"), "issue 'a/b#-3" + number);
  EXPECT_EQ(message("a/b#12x"), "issue 'a/b#12x" + number);
  EXPECT_EQ(message("a/b#99999999999999999999"), "issue 'a/b#99999999999999999999" + number);
}
