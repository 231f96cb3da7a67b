// Each function registers one family of verbs on the faultline application.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/context.hpp"

namespace faultline::cli {

void add_data_commands(CLI::App& app, Context& ctx);         // taxonomy, import, export
void add_funnel_commands(CLI::App& app, Context& ctx);       // screen, sample, funnel
void add_label_commands(CLI::App& app, Context& ctx);        // label, audit, adjudicate
void add_classifier_commands(CLI::App& app, Context& ctx);   // train, classify, eval
void add_report_command(CLI::App& app, Context& ctx);        // report
void add_show_command(CLI::App& app, Context& ctx);          // show
void add_demo_summary_command(CLI::App& app, Context& ctx);  // demo-summary
void add_repro_commands(CLI::App& app, Context& ctx);        // repro, suite, link, doctor
void add_mine_command(CLI::App& app, Context& ctx);          // mine
void add_triage_command(CLI::App& app, Context& ctx);        // triage

}  // namespace faultline::cli
