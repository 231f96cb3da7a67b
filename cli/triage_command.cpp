#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>

#include "classifier/model/classify_store.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "common/repository_name.hpp"
#include "common/text_file.hpp"
#include "datasets/store/snapshot.hpp"
#include "reports/triage.hpp"
#include "reproducers/suite.hpp"

namespace faultline::cli {

namespace {

struct TriageOptions {
  std::string issue;  // OWNER/NAME#N, FILE.json or -
  std::string batch;
  std::string model_dir;
};

// The one record of `text`. A text that is no record, whose first line is JSON of its own with more after
// it, is probably several records (JSONL), which --batch reads; a record written over several lines is not.
datasets::IssueRecord one_record(const std::string& text, const std::string& origin) {
  try {
    return datasets::parse_record(text, origin);
  } catch (const Error& e) {
    const auto first_end = text.find('\n');
    if (first_end == std::string::npos || text.find_first_not_of(" \t\r\n", first_end) == std::string::npos ||
        !nlohmann::json::accept(text.substr(0, first_end)))
      throw;
    throw Error(std::string(e.what()) + " (several records? triage a JSONL file with --batch FILE.jsonl)");
  }
}

// "-" is stdin, an existing file is a record, anything else must be an issue key of the store.
datasets::IssueRecord issue_to_triage(const reports::Triage& triage, const std::string& argument) {
  // An endless stream (`yes | faultline triage -`) or a device is refused at a record's largest size.
  if (argument == "-")
    return one_record(common::read_at_most(std::cin, datasets::kLongestRecordBytes, "stdin"), "stdin");
  // A file, or what a shell hands over as one (a pipe from <(...), /dev/stdin).
  std::error_code error;
  if (std::filesystem::exists(argument, error))
    return one_record(common::read_text_file_at_most(argument, datasets::kLongestRecordBytes), argument);
  if (argument.find('#') == std::string::npos) {
    throw Error("triage: there is no file '" + argument +
                "', and it is no issue key OWNER/NAME#NUMBER either");
  }
  auto [repo, number] = common::parse_issue_key(argument);
  return triage.stored_issue(repo, number);
}

void triage(const Context& ctx, const TriageOptions& o) {
  if (o.issue.empty() == o.batch.empty()) {
    throw CLI::ValidationError("triage",
                               "give one issue (OWNER/NAME#N, FILE.json or -) or --batch FILE.jsonl");
  }
  auto db = ctx.open_db();
  // The manifests as they are now, read and not registered: triage never writes to the store.
  reports::Triage t(*db, o.model_dir.empty() ? model::default_model_dir(ctx.db_path) : o.model_dir,
                    reproducers::current_catalog());
  if (!o.issue.empty()) {
    auto r = t.triage(issue_to_triage(t, o.issue));
    ctx.emit(reports::triage_json(r), reports::triage_text(r));
    return;
  }
  if (o.batch == "-") {
    throw Error(
        "triage: --batch reads a JSONL file, not stdin; save the records to a file, or give one record "
        "on stdin with 'triage -'");
  }
  // Every record is checked before the first is triaged, so a bad line leaves no partial output.
  auto records = datasets::read_snapshot(o.batch);
  for (size_t i = 0; i < records.size(); ++i) {
    auto r = t.triage(records[i]);
    ctx.emit(reports::triage_json(r), (i ? "\n" : "") + reports::triage_text(r));
  }
}

}  // namespace

void add_triage_command(CLI::App& app, Context& ctx) {
  auto options = std::make_shared<TriageOptions>();
  auto* cmd = app.add_subcommand(
      "triage",
      "Triage one issue: predicted scope, symptom and root cause with probabilities and whether it would be "
      "queued for a person, the rules and tokens behind each decision, the 5 most similar labeled issues, "
      "and "
      "the reproducers to try with their last suite outcome. The issue is one in the store (OWNER/NAME#N), a "
      "corpus record in a JSON file, or one on stdin (-); --batch triages every record of a JSONL file (with "
      "--json, one object per line). A record is one JSON object with repo, number, state (open or closed) "
      "and "
      "title, and optionally body, error_lines, env, discussion, labels, created, url and scope (in or out: "
      "a "
      "person's decision, which replaces the store's), as each line of "
      "datasets/snapshot/issues.jsonl (url: the issue's page, https://HOST/OWNER/NAME/issues/N; created: "
      "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ). Of each text field the first 65,536 bytes are read. The store "
      "needs a trained model ('faultline train').\n"
      "Example: faultline triage NVIDIA/cutlass#12");
  auto* issue = cmd->add_option("issue", options->issue, "OWNER/NAME#NUMBER, FILE.json or - (stdin)");
  cmd->add_option("--batch", options->batch, "JSONL file of corpus records, one per line")->excludes(issue);
  cmd->add_option("--models", options->model_dir, "model directory (default: <db>.models)")
      ->check(not_empty());
  cmd->callback([&ctx, options] { triage(ctx, *options); });
}

}  // namespace faultline::cli
