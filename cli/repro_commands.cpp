#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/text_table.hpp"
#include "common/repository_name.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "datasets/store/issue_record.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/suite_store.hpp"
#include "reproducers/doctor.hpp"
#include "reproducers/metadata_table.hpp"
#include "reproducers/suite.hpp"

namespace faultline::cli {

namespace {

constexpr const char* kBuildDirHelp =
    "where the harnesses were built: a CMake build tree or an unpacked GPU bundle (default: this build)";

struct ReproOptions {
  std::string id;
  std::string mode = "auto";
  std::string junit;
  std::string manifests;
  std::string build_dir;
  std::string issue;
  std::string format = "text";
  int repeat = 1;
};

// Listing and linking need only the manifests, not a probe of the GPU.
std::string manifest_dir(const ReproOptions& o) {
  return o.manifests.empty() ? reproducers::default_manifest_dir() : o.manifests;
}

reproducers::Environment environment(const ReproOptions& o) {
  auto env = reproducers::detect_environment();
  if (!o.manifests.empty()) env.manifest_dir = o.manifests;
  if (!o.build_dir.empty()) env.build_dir = o.build_dir;
  return env;
}

nlohmann::json result_json(const reproducers::RunResult& r) {
  return {{"id", r.id},
          {"mode", r.mode},
          {"variant", r.variant},
          {"outcome", r.outcome},
          {"detail", r.detail},
          {"seconds", r.seconds},
          {"stability",
           {{"runs", r.stability.runs}, {"as_expected", r.stability.as_expected}, {"status", r.stability.status}}},
          {"cuda_toolkit", r.cuda_toolkit},
          {"driver", r.driver},
          {"compute_capability", r.compute_capability}};
}

std::string result_line(const reproducers::RunResult& r) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2fs", r.seconds);
  std::string stable = r.stability.runs > 1 ? ", stable " + std::to_string(r.stability.as_expected) + "/" +
                                                  std::to_string(r.stability.runs) + " " + r.stability.status
                                            : "";
  return r.id + " [" + r.mode + "/" + r.variant + "] " + r.outcome + " (" + seconds + stable + ") — " + r.detail;
}

void list(const Context& ctx, const ReproOptions& o) {
  auto manifests = reproducers::load_manifests(manifest_dir(o));
  // Listing needs no store; with one, the catalog is recorded and the last outcomes are shown.
  std::vector<reproducers::MetadataRow> rows;
  if (std::filesystem::exists(ctx.db_path)) {
    auto db = ctx.open_db();
    reproducers::register_manifests(*db, manifests);
    rows = reproducers::metadata_rows(manifests, datasets::latest_suite_results(*db));
  } else {
    rows = reproducers::metadata_rows(manifests, {});
  }
  if (ctx.json || o.format == "json") {
    std::cout << nlohmann::json{{"reproducers", reproducers::metadata_json(rows)}}.dump() << "\n";
  } else if (o.format == "md") {
    std::cout << reproducers::metadata_markdown(rows);
  } else if (o.format == "csv") {
    std::cout << reproducers::metadata_csv(rows);
  } else {
    std::vector<std::vector<std::string>> table{{"id", "symptom", "root cause", "last outcome", "source"}};
    for (const auto& r : rows) table.push_back({r.id, r.symptom, r.root_cause, r.last_outcome, r.source});
    std::cout << text_table(table);
  }
}

int run_one(const Context& ctx, const ReproOptions& o) {
  auto env = environment(o);
  reproducers::require_build_dir(env);
  auto manifests = reproducers::load_manifests(env.manifest_dir);
  const auto& m = reproducers::find_manifest(manifests, o.id);
  nlohmann::json j = nlohmann::json::array();
  std::string text;
  std::vector<reproducers::RunResult> results;
  for (const auto& [mode, variant] : reproducers::planned_runs(m, reproducers::resolve_modes(o.mode, env))) {
    results.push_back(reproducers::run_variant(m, mode, variant, env));
    j.push_back(result_json(results.back()));
    text += result_line(results.back()) + "\n";
  }
  ctx.emit({{"id", m.id}, {"results", j}}, text);
  auto problems = reproducers::run_problems(o.mode, results);
  for (const auto& p : problems) std::cerr << "repro: " << p << "\n";
  return problems.empty() ? 0 : 1;
}

void write_junit(const std::string& path, const std::vector<reproducers::RunResult>& results) {
  common::write_file_atomically(path, reproducers::junit_xml(results));
}

int suite(const Context& ctx, const ReproOptions& o) {
  auto env = environment(o);
  reproducers::require_build_dir(env);
  auto manifests = reproducers::load_manifests(env.manifest_dir);
  auto db = ctx.open_or_create_db();
  reproducers::register_manifests(*db, manifests);
  bool tty = isatty(STDERR_FILENO);
  auto summary = reproducers::run_suite(*db, manifests, {o.mode, o.repeat}, env, [&](const reproducers::RunResult& r) {
    if (!ctx.json)
      std::cout << result_line(r) << "\n" << std::flush;
    else if (tty)
      std::cerr << "\r" << r.id << " [" << r.mode << "/" << r.variant << "] " << r.outcome << "\033[K"
                << std::flush;
  });
  if (tty && ctx.json) std::cerr << "\r\033[K";
  if (!o.junit.empty()) write_junit(o.junit, summary.results);
  auto problems = summary.problems();
  if (ctx.json) {
    nlohmann::json results = nlohmann::json::array();
    for (const auto& r : summary.results) results.push_back(result_json(r));
    std::cout << nlohmann::json{{"run", summary.run_id},   {"mode", o.mode},
                                {"repeat", o.repeat},      {"modes", summary.modes},
                                {"counts", summary.counts}, {"summary", summary.counts_line()},
                                {"healthy", problems.empty()}, {"problems", problems},
                                {"results", results}}
                     .dump()
              << "\n";
  } else {
    std::cout << "suite run " << summary.run_id << " (" << o.mode << ", repeat " << o.repeat
              << "): " << summary.counts_line() << "\n";
  }
  for (const auto& p : problems) std::cerr << "suite: " << p << "\n";
  return problems.empty() ? 0 : 1;
}

void link(const Context& ctx, const ReproOptions& o) {
  auto manifests = reproducers::load_manifests(manifest_dir(o));
  reproducers::find_manifest(manifests, o.id);
  auto [repo, number] = common::parse_issue_key(o.issue);
  auto db = ctx.open_db();
  int64_t issue_id = datasets::require_issue(*db, repo, number, "link");
  reproducers::register_manifests(*db, manifests);
  db->transaction([&] { datasets::link_reproducer(*db, issue_id, o.id); });
  ctx.emit({{"issue", o.issue}, {"reproducer", o.id}}, "linked " + o.issue + " to " + o.id + "\n");
}

void doctor(const Context& ctx, const ReproOptions& o) {
  auto env = environment(o);
  auto report = reproducers::doctor_report(env, reproducers::load_manifests(env.manifest_dir));
  std::vector<std::vector<std::string>> rows;
  for (const auto& [k, v] : reproducers::describe(env)) rows.push_back({k, v});
  std::string text = text_table(rows) + "reproducers:\n";
  for (const auto& r : report.reproducers) text += "  " + r.id + ": " + reproducers::readiness_text(r) + "\n";
  ctx.emit(reproducers::doctor_json(report), text);
}

void add_repro_list_and_run(CLI::App& app, Context& ctx, ReproOptions& o) {
  auto* repro = app.add_subcommand(
      "repro", "Reproducers: small CUDA programs, buggy and fixed, that recreate a failure.");
  repro->require_subcommand(1);
  auto* list_cmd = repro->add_subcommand(
      "list",
      "List the reproducers: id, symptom, root cause, source issue, fix, what each mode checks and the last "
      "outcome in the store.\nExample: faultline repro list --format md");
  list_cmd->add_option("--manifests", o.manifests, "manifest directory (default: the source tree's reproducers/)");
  list_cmd->add_option("--format", o.format, "text | md | csv | json")
      ->check(CLI::IsMember({"text", "md", "csv", "json"}));
  list_cmd->callback([&ctx, &o] { list(ctx, o); });
  auto* run_cmd = repro->add_subcommand("run",
                                        "Run one reproducer's variants in a mode.\n"
                                        "Example: faultline repro run int16-bound-overflow --mode host");
  run_cmd->add_option("id", o.id, "reproducer id")->required();
  run_cmd->add_option("--mode", o.mode, "auto | build | host | gpu")
      ->check(CLI::IsMember({"auto", "build", "host", "gpu"}));
  run_cmd->add_option("--manifests", o.manifests, "manifest directory");
  run_cmd->add_option("--build-dir", o.build_dir, kBuildDirHelp);
  run_cmd->callback([&ctx, &o] {
    if (run_one(ctx, o) != 0) throw CLI::RuntimeError(1);
  });
}

void add_suite(CLI::App& app, Context& ctx, ReproOptions& o) {
  auto* suite_cmd = app.add_subcommand(
      "suite",
      "Run every reproducer as a regression suite: buggy variants must still show their symptom, fixed "
      "ones must behave. Results go to the store. Exits non-zero on a failure, and when gpu mode was asked "
      "for and every GPU result was skipped.\n"
      "Example: faultline suite --mode auto --junit suite.xml; faultline suite --mode gpu --repeat 30");
  suite_cmd->add_option("--mode", o.mode, "auto (build + host + gpu if present) | build | host | gpu")
      ->check(CLI::IsMember({"auto", "build", "host", "gpu"}));
  suite_cmd->add_option("--repeat", o.repeat, "runs per variant, for stability (build mode runs once)")
      ->check(CLI::PositiveNumber);
  suite_cmd->add_option("--junit", o.junit, "write JUnit XML here");
  suite_cmd->add_option("--manifests", o.manifests, "manifest directory");
  suite_cmd->add_option("--build-dir", o.build_dir, kBuildDirHelp);
  suite_cmd->callback([&ctx, &o] {
    int code = suite(ctx, o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

void add_link_and_doctor(CLI::App& app, Context& ctx, ReproOptions& o) {
  auto* link_cmd = app.add_subcommand("link",
                                      "Link a labeled issue to a reproducer modeled on it.\n"
                                      "Example: faultline link NVIDIA/cutlass#225 metadata-layout-mismatch");
  link_cmd->add_option("issue", o.issue, "OWNER/NAME#NUMBER")->required();
  link_cmd->add_option("id", o.id, "reproducer id")->required();
  link_cmd->add_option("--manifests", o.manifests, "manifest directory");
  link_cmd->callback([&ctx, &o] { link(ctx, o); });

  auto* doctor_cmd = app.add_subcommand("doctor",
                                        "What this machine can run: GPU, driver, CUDA, nvcc, compute capability, "
                                        "and which reproducers' GPU mode applies.\nExample: faultline doctor");
  doctor_cmd->add_option("--manifests", o.manifests, "manifest directory");
  doctor_cmd->add_option("--build-dir", o.build_dir, kBuildDirHelp);
  doctor_cmd->callback([&ctx, &o] { doctor(ctx, o); });
}

}  // namespace

void add_repro_commands(CLI::App& app, Context& ctx) {
  static ReproOptions options;
  add_repro_list_and_run(app, ctx, options);
  add_suite(app, ctx, options);
  add_link_and_doctor(app, ctx, options);
}

}  // namespace faultline::cli
