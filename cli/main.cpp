// The faultline executable: parses arguments and hands each verb to its library.
// Exit status: 0 done; 1 the command failed (its message is on stderr, or the suite found failures);
// 2 the command line was not understood (unknown verb or option, missing or invalid argument).
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/one_line.hpp"
#include "common/version.hpp"

namespace {

constexpr int kCommandFailed = 1;
constexpr int kUsageError = 2;

// `status`, unless what was printed on stdout did not all get out (a full disk, a file-size limit): then
// the command failed, whatever it did, as its output is cut. (A reader that closed its pipe ends faultline
// by SIGPIPE, as it does any Unix tool.)
int with_output_checked(int status) {
  errno = 0;
  std::cout.flush();
  if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good()) return status;
  std::cerr << "faultline: cannot write the output" << (errno ? std::string(": ") + std::strerror(errno) : "")
            << '\n';
  return status == 0 ? kCommandFailed : status;
}

// Parses the command line and runs its verb; the exit status.
int run(int argc, char** argv) {
  faultline::cli::Context ctx;
  ctx.db_path = faultline::cli::default_db_path();
  try {
    ctx.busy_timeout_s = faultline::cli::default_busy_timeout_s();
  } catch (const faultline::Error& e) {
    std::cerr << "faultline: " << e.what() << '\n';
    return 1;
  }

  CLI::App app{
      "faultline — study and regression-test failures of GPU kernel libraries.\n"
      "Pipeline: mine → screen → sample → label/audit → train/classify → report; reproducers run as a "
      "suite.\n"
      "Example: faultline import --snapshot datasets/snapshot/issues.jsonl && faultline report --out "
      "out/report",
      "faultline"};
  app.require_subcommand(1);
  app.fallthrough();
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", std::string("faultline ") + faultline::common::version());
  app.add_option("--db", ctx.db_path, "SQLite store (default $FAULTLINE_DB or faultline.db)")
      ->check(faultline::cli::not_empty());
  app.add_option(
         "--busy-timeout", ctx.busy_timeout_s,
         "seconds to wait for another faultline writing the store (default $FAULTLINE_BUSY_TIMEOUT or 5)")
      ->check(faultline::cli::number_in(0.0, 86400.0));
  app.add_flag("--json", ctx.json, "print one JSON object on stdout instead of text");
  app.add_flag("--quiet", ctx.quiet, "no progress lines on stderr");

  faultline::cli::add_data_commands(app, ctx);
  faultline::cli::add_funnel_commands(app, ctx);
  faultline::cli::add_label_commands(app, ctx);
  faultline::cli::add_classifier_commands(app, ctx);
  faultline::cli::add_report_command(app, ctx);
  faultline::cli::add_show_command(app, ctx);
  faultline::cli::add_demo_summary_command(app, ctx);
  faultline::cli::add_repro_commands(app, ctx);
  faultline::cli::add_mine_command(app, ctx);
  faultline::cli::add_triage_command(app, ctx);

  auto reading = faultline::cli::read_command_line(app, std::vector<std::string>(argv + 1, argv + argc));
  if (reading.unknown) {
    std::cerr << "faultline: " << faultline::cli::unknown_word_message(reading) << '\n';
    return kUsageError;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a verb that reported its own failures (suite, repro run)
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // CLI11's text quotes the word it refused, which came from the command line.
    std::cerr << "faultline: " << faultline::common::one_line(e.what()) << " (see '" << reading.command
              << " --help')\n";
    return kUsageError;
  } catch (const faultline::Error& e) {
    std::cerr << "faultline: " << e.what() << '\n';
    return kCommandFailed;
  } catch (const std::exception& e) {
    std::cerr << "faultline: unexpected error: " << faultline::common::one_line(e.what()) << '\n';
    return kCommandFailed;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything is opened: the descriptors a shell handed over, which --out /dev/fd/N may name.
  faultline::common::remember_inherited_descriptors();
  // A write past a file-size limit (ulimit -f) fails with EFBIG, and the command says so and cleans up, as
  // on a full disk: by default the signal killed faultline without a word, its temporary files left.
  std::signal(SIGXFSZ, SIG_IGN);
  return with_output_checked(run(argc, argv));
}
