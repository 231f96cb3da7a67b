#include <iostream>
#include <memory>
#include <sstream>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/counted.hpp"
#include "common/error.hpp"
#include "common/one_line.hpp"
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

struct ImportOptions {
  std::string snapshot;
};

struct ExportOptions {
  std::string what = "issues";
  std::string format = "jsonl";
  std::string out_path;
};

void import_snapshot(const Context& ctx, const ImportOptions& o) {
  datasets::ImportSummary summary;
  int64_t issues = 0;
  ctx.on_store_or_none([&](datasets::Database& db) {
    summary = datasets::import_snapshot(db, o.snapshot);
    issues = datasets::count_issues(db);
  });
  nlohmann::json j = {{"inserted", summary.inserted}, {"updated", summary.updated}, {"issues", issues}};
  j.update(datasets::outdated_json(summary.outdated));
  ctx.emit(j, "imported " + common::one_line(o.snapshot) + ": " + std::to_string(summary.inserted) +
                  " new, " + std::to_string(summary.updated) +
                  " already stored (rewritten from the file); the store holds " +
                  common::counted(issues, "issue") + "\n" + datasets::outdated_lines(summary.outdated));
}

void export_records(const Context& ctx, const ExportOptions& o) {
  auto db = ctx.open_db();
  std::ostringstream out;
  size_t records = 0;
  if (o.what == "issues") {
    records = datasets::export_issues(*db, out, o.format);
  } else if (o.what == "labels") {
    records = datasets::write_final_labels(*db, out, o.format);
  } else {
    records = datasets::write_predictions(*db, out, o.format);
  }
  // Without --out the records are the output, in their format, --json or not.
  if (o.out_path.empty()) {
    std::cout << out.str();
    return;
  }
  common::write_file_atomically(o.out_path, out.str());
  const std::string what = o.what == "labels" ? "final labels" : o.what;
  ctx.emit_about_output(o.out_path,
                        {{"what", o.what}, {"format", o.format}, {"out", o.out_path}, {"records", records}},
                        "exported " + std::to_string(records) + " " + what + " (" + o.format + ") to " +
                            common::one_line(o.out_path) + "\n");
}

}  // namespace

void add_data_commands(CLI::App& app, Context& ctx) {
  auto* tax = app.add_subcommand("taxonomy",
                                 "Print the taxonomy of symptoms and root causes.\n"
                                 "Example: faultline taxonomy --json");
  tax->callback([&ctx] { print_taxonomy(ctx); });

  auto* import_cmd =
      app.add_subcommand("import",
                         "Load corpus records (JSONL) into the store; re-import updates.\n"
                         "Example: faultline import --snapshot datasets/snapshot/issues.jsonl");
  auto import_options = std::make_shared<ImportOptions>();
  import_cmd->add_option("--snapshot", import_options->snapshot, "JSONL file of corpus records")->required();
  import_cmd->callback([&ctx, import_options] { import_snapshot(ctx, *import_options); });

  auto* export_cmd =
      app.add_subcommand("export",
                         "Write issues, final labels or predictions to stdout or a file.\n"
                         "Example: faultline export --what issues --format jsonl --out issues.jsonl");
  auto export_options = std::make_shared<ExportOptions>();
  export_cmd->add_option("--what", export_options->what, "issues | labels | predictions")
      ->check(CLI::IsMember({"issues", "labels", "predictions"}));
  export_cmd->add_option("--format", export_options->format, "jsonl | csv")
      ->check(CLI::IsMember({"jsonl", "csv"}));
  export_cmd->add_option("--out", export_options->out_path, "output file (default: stdout)")
      ->check(not_empty());
  export_cmd->callback([&ctx, export_options] { export_records(ctx, *export_options); });
}

}  // namespace faultline::cli
