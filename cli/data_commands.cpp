#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"
#include "datasets/store/snapshot.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::cli {

namespace {

void print_taxonomy(const Context& ctx) {
  const auto& t = taxonomy::Taxonomy::builtin();
  std::string text = "Symptoms:\n";
  for (const auto& s : t.symptoms()) {
    text += "  " + s.id + " — " + s.name + " (study: " + std::to_string(s.study_count) + ")\n";
  }
  for (const auto& d : t.dimensions()) {
    text += d.name + " (" + d.id + ", study: " + std::to_string(d.study_subtotal) + "):\n";
    for (const auto& id : d.root_causes) {
      const auto& rc = t.root_cause(id);
      text += "  " + rc.id + " — " + rc.name + " (study: " + std::to_string(rc.study_count) + ")\n";
    }
  }
  ctx.emit(t.to_json(), text);
}

}  // namespace

void add_data_commands(CLI::App& app, Context& ctx) {
  auto* tax = app.add_subcommand("taxonomy",
                                 "Print the taxonomy of symptoms and root causes.\n"
                                 "Example: faultline taxonomy --json");
  tax->callback([&ctx] { print_taxonomy(ctx); });

  auto* import = app.add_subcommand("import",
                                    "Load corpus records (JSONL) into the store; re-import updates.\n"
                                    "Example: faultline import --snapshot datasets/snapshot/issues.jsonl");
  static std::string snapshot;
  import->add_option("--snapshot", snapshot, "JSONL file of corpus records")->required();
  import->callback([&ctx] {
    auto db = ctx.open_or_create_db();
  auto summary = datasets::import_snapshot(*db, snapshot);
  ctx.emit(
      {{"inserted", summary.inserted}, {"updated", summary.updated}, {"issues", datasets::count_issues(*db)}},
      "imported " + snapshot + ": " + std::to_string(summary.inserted) + " new, " +
          std::to_string(summary.updated) + " updated; the store holds " +
          std::to_string(datasets::count_issues(*db)) + " issues\n");
});

auto* exp = app.add_subcommand("export",
                               "Write issues, final labels or predictions to stdout or a file.\n"
                               "Example: faultline export --what issues --format jsonl --out issues.jsonl");
static std::string what = "issues", format = "jsonl", out_path;
exp->add_option("--what", what, "issues | labels | predictions")
    ->check(CLI::IsMember({"issues", "labels", "predictions"}));
exp->add_option("--format", format, "jsonl | csv")->check(CLI::IsMember({"jsonl", "csv"}));
exp->add_option("--out", out_path, "output file (default: stdout)");
exp->callback([&ctx] {
  auto db = ctx.open_db();
  std::ostringstream out;
  if (what == "issues") {
    auto issues = datasets::load_issues(*db);
    format == "jsonl" ? datasets::write_issues_jsonl(out, issues) : datasets::write_issues_csv(out, issues);
  } else if (what == "labels") {
    datasets::write_final_labels(*db, out, format);
  } else {
    datasets::write_predictions(*db, out, format);
  }
  if (out_path.empty()) {
    std::cout << out.str();
  } else {
    common::write_file_atomically(out_path, out.str());
  }
});
}  // namespace faultline::cli

}  // namespace faultline::cli
