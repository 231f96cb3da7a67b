#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "common/one_line.hpp"
#include "reports/demo_summary.hpp"
#include "reports/report_writer.hpp"
#include "reproducers/suite.hpp"

namespace faultline::cli {

namespace {

struct ReportOptions {
  std::string out_dir;
  std::set<std::string> formats{"md", "csv", "tex", "json", "html"};
  bool with_predictions = false;
  std::string sample;
  std::string evaluation;
};

void report(const Context& ctx, const ReportOptions& o) {
  auto db = ctx.open_db();
  reports::ReportOptions options;
  options.catalog = reproducers::current_catalog();
  options.include_predictions = o.with_predictions;
  options.sample_name = o.sample;
  options.evaluation_path = o.evaluation;
  const char* api_url = std::getenv("GITHUB_API_URL");
  options.issue_link_host = reports::issue_link_host(api_url ? api_url : "");
  auto data = reports::load_report_data(*db, options);
  auto summary = reports::write_report(data, o.out_dir, o.formats);
  std::string text = "report of " + std::to_string(summary.cases) + " labeled issues (" +
                     std::to_string(summary.cases_with_source_reproducer) +
                     " with a reproducer modeled on them; " + std::to_string(summary.root_causes_reproduced) +
                     " of their " + std::to_string(summary.root_causes_labeled) +
                     " root causes have a reproducer that reproduced in the latest suite run)" +
                     (summary.predicted ? " and " + std::to_string(summary.predicted) +
                                              " predicted candidates in tables of their own"
                                        : "") +
                     " written to " + common::one_line(o.out_dir) + " (" +
                     std::to_string(summary.files.size()) + " files)\n";
  for (const auto& finding : summary.findings) text += "  - " + finding + "\n";
  if (funnel::labels_left_out(data.funnel) > 0 || data.funnel.not_screened > 0 ||
      data.funnel.sample_method == "none")
    text += "note: " + funnel::funnel_note(data.funnel) + "\n";
  if (data.not_predicted.total() > 0)
    text += "note: " + reports::candidates_not_predicted_note(data.not_predicted) + "\n";
  else if (o.with_predictions && summary.predicted == 0)
    text += funnel::funnel_total(data.funnel.rows).candidates == 0
                ? "note: no issue is a screened-in candidate: no prediction to add (run 'faultline screen')\n"
                : "note: every screened-in candidate has a final label: no prediction to add\n";
  nlohmann::json j = {{"cases", summary.cases},
                      {"cases_with_source_reproducer", summary.cases_with_source_reproducer},
                      {"root_causes_labeled", summary.root_causes_labeled},
                      {"root_causes_reproduced", summary.root_causes_reproduced},
                      {"sample", data.funnel.sample},
                      {"sample_method", data.funnel.sample_method},
                      {"predicted", summary.predicted},
                      {"files", summary.files},
                      {"findings", summary.findings}};
  if (o.with_predictions) {
    j["not_predicted"] = {{"abstained", data.not_predicted.abstained},
                          {"predicted_out_of_scope", data.not_predicted.predicted_out_of_scope},
                          {"unclassified", data.not_predicted.unclassified}};
  }
  ctx.emit(j, text);
}

}  // namespace

void add_report_command(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<ReportOptions>();
  auto* report_cmd =
      app.add_subcommand("report",
                         "Write the study's tables (I–III), cross-tabs, findings and an HTML page "
                         "with charts, counting the final manual labels; --with-predictions adds "
                         "the classifier's confident predictions for unlabeled candidates.\n"
                         "Example: faultline report --out out/report --format md,html");
  report_cmd->add_option("--out", o->out_dir, "output directory")->required()->check(not_empty());
  report_cmd->add_option("--format", o->formats, "comma-separated: md,csv,tex,json,html (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"md", "csv", "tex", "json", "html"}));
  report_cmd
      ->add_option("--sample", o->sample,
                   "the sample whose labeled issues the tables count (default: 'main', or the store's "
                   "only sample)")
      ->check(not_empty());
  report_cmd->add_flag(
      "--with-predictions", o->with_predictions,
      "also count predictions for screened-in candidates without a final label (a rater's label "
      "not yet final does not count)");
  report_cmd
      ->add_option("--evaluation", o->evaluation,
                   "add the classifier's figures and threshold table from this output of "
                   "'faultline --json eval'")
      ->check(CLI::ExistingFile);
  report_cmd->callback([&ctx, o] { report(ctx, *o); });
}

void add_demo_summary_command(CLI::App& app, Context& ctx) {
  auto work_dir = std::make_shared<std::string>();
  auto* summary = app.add_subcommand("demo-summary",
                                     "Print the summary lines of a demo run from the JSON its steps wrote "
                                     "(./run demo calls it last).\n"
                                     "Example: faultline demo-summary out/demo");
  summary->add_option("WORK_DIR", *work_dir, "the demo's working directory")->required();
  summary->callback([&ctx, work_dir] {
    auto lines = reports::demo_summary(*work_dir);
    std::string text;
    for (const auto& line : lines) text += line + "\n";
    ctx.emit({{"lines", lines}}, text);
  });
}

}  // namespace faultline::cli
