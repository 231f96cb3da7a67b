#include <gtest/gtest.h>

#include "cli/command_line.hpp"

using faultline::cli::read_command_line;
using faultline::cli::unknown_word_message;

namespace {

// The shape of faultline's parser: global options that fall through, verbs with options, sub-verbs,
// positionals.
struct Application {
  CLI::App app{"test", "faultline"};
  std::string db, out, format, rater, file, issue, reason;
  int total = 0;
  bool json = false;

  Application() {
    app.require_subcommand(1);
    app.fallthrough();
    app.add_option("--db", db);
    app.add_flag("--json", json);
    app.add_subcommand("screen");
    auto* report = app.add_subcommand("report");
    report->add_option("--out", out)->required();
    report->add_option("--format", format);
    auto* sample = app.add_subcommand("sample");
    sample->add_option("--total", total);
    auto* replace = sample->add_subcommand("replace");
    replace->add_option("issue", issue)->required();
    replace->add_option("--reason", reason);
    auto* label = app.add_subcommand("label");
    label->require_subcommand(1);
    label->add_subcommand("export")->add_option("--rater", rater);
    auto* import = label->add_subcommand("import");
    import->add_option("--rater", rater);
    import->add_option("file", file);
  }

  faultline::cli::CommandLineReading read(const std::vector<std::string>& args) const {
    return read_command_line(app, args);
  }
};

}  // namespace

TEST(CommandLine, AMistypedVerbIsNamedWithTheNearestVerb) {
  Application a;
  auto r = a.read({"screan"});
  ASSERT_TRUE(r.unknown);
  EXPECT_EQ(unknown_word_message(r), "unknown verb 'screan' for 'faultline'; did you mean 'screen'?");
}

TEST(CommandLine, AMistypedSubVerbIsNamedUnderItsVerb) {
  Application a;
  auto r = a.read({"--db", "x.db", "label", "exprt", "--rater", "alice"});
  ASSERT_TRUE(r.unknown);
  EXPECT_EQ(unknown_word_message(r), "unknown verb 'exprt' for 'faultline label'; did you mean 'export'?");
}

TEST(CommandLine, AMistypedOptionIsReportedBeforeAMissingRequiredOne) {
  Application a;
  // CLI11 alone would say "--out is required": the typo is the real problem.
  auto r = a.read({"report", "--formt", "md"});
  ASSERT_TRUE(r.unknown);
  EXPECT_EQ(unknown_word_message(r),
            "unknown option '--formt' for 'faultline report'; did you mean '--format'?");
  auto with_value = a.read({"sample", "--totl=300"});
  ASSERT_TRUE(with_value.unknown);
  EXPECT_EQ(with_value.unknown->word, "--totl");
  EXPECT_EQ(with_value.unknown->nearest, "--total");
}

TEST(CommandLine, ACorrectCommandLineHasNoUnknownWord) {
  Application a;
  // Option values ("md", "x.db"), positionals (the issue, the file) and global options after the verb.
  EXPECT_FALSE(a.read({"report", "--format", "md", "--out", "r", "--json"}).unknown);
  EXPECT_FALSE(a.read({"sample", "replace", "a/b#1", "--reason", "no fix", "--db", "x.db"}).unknown);
  EXPECT_FALSE(a.read({"label", "import", "--rater", "alice", "screen"}).unknown);  // a file named screen
  auto r = a.read({"label", "export", "--rater", "alice"});
  EXPECT_EQ(r.command, "faultline label export");
}

TEST(CommandLine, AWordNearNoVerbListsTheVerbs) {
  Application a;
  auto r = a.read({"zzzzzz"});
  ASSERT_TRUE(r.unknown);
  EXPECT_EQ(r.unknown->nearest, std::nullopt);
  EXPECT_EQ(unknown_word_message(r),
            "unknown verb 'zzzzzz' for 'faultline'; the verbs are: screen, report, sample, label");
}
