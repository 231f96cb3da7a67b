// The faultline executable: parses arguments and hands each verb to its library.
#include <iostream>

#include "cli/commands.hpp"
#include "common/error.hpp"

int main(int argc, char** argv) {
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
      "out/report"};
  app.require_subcommand(1);
  app.fallthrough();
  app.option_defaults()->always_capture_default();
  app.add_option("--db", ctx.db_path, "SQLite store (default $FAULTLINE_DB or faultline.db)");
  app.add_option(
         "--busy-timeout", ctx.busy_timeout_s,
         "seconds to wait for another faultline writing the store (default $FAULTLINE_BUSY_TIMEOUT or 5)")
      ->check(CLI::Range(0.0, 86400.0));
  app.add_flag("--json", ctx.json, "print one JSON object on stdout instead of text");

  faultline::cli::add_data_commands(app, ctx);
  faultline::cli::add_funnel_commands(app, ctx);
  faultline::cli::add_label_commands(app, ctx);
  faultline::cli::add_classifier_commands(app, ctx);
  faultline::cli::add_report_command(app, ctx);
  faultline::cli::add_demo_summary_command(app, ctx);
  faultline::cli::add_repro_commands(app, ctx);
  faultline::cli::add_mine_command(app, ctx);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const faultline::Error& e) {
    std::cerr << "faultline: " << e.what() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "faultline: unexpected error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
