#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "common/repository_name.hpp"
#include "reports/issue_view.hpp"
#include "reproducers/suite.hpp"

namespace faultline::cli {

void add_show_command(CLI::App& app, Context& ctx) {
  auto issue_key = std::make_shared<std::string>();
  auto* show = app.add_subcommand("show",
                                  "Everything the store knows of one issue: its text, screening decision and "
                                  "rule, every rater's label, the final label and its provenance, the "
                                  "prediction with probabilities, and its reproducers.\n"
                                  "Example: faultline show NVIDIA/cutlass#12");
  show->add_option("issue", *issue_key, "OWNER/NAME#NUMBER")->required()->check(cli::issue_key());
  show->callback([&ctx, issue_key] {
    auto [repo, number] = common::parse_issue_key(*issue_key);
    auto db = ctx.open_db();
    auto view = reports::load_issue_view(*db, repo, number, reproducers::current_catalog());
    ctx.emit(reports::issue_view_json(view), reports::issue_view_text(view));
  });
}

}  // namespace faultline::cli
