#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/text_table.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "datasets/store/issue_record.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/suite_store.hpp"
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
  return {{"id", r.id},           {"mode", r.mode},     {"variant", r.variant},
          {"outcome", r.outcome}, {"detail", r.detail}, {"seconds", r.seconds}};
}

std::string result_line(const reproducers::RunResult& r) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2fs", r.seconds);
  return r.id + " [" + r.mode + "/" + r.variant + "] " + r.outcome + " (" + seconds + ") — " + r.detail;
}

void list(const Context& ctx, const ReproOptions& o) {
  auto manifests = reproducers::load_manifests(manifest_dir(o));
  auto db = ctx.open_db();
  reproducers::register_manifests(*db, manifests);
  nlohmann::json j = nlohmann::json::array();
  std::vector<std::vector<std::string>> rows{{"id", "symptom", "root cause", "modes", "source"}};
  for (const auto& m : manifests) {
    std::string modes;
    for (const auto& [mode, variants] : m.modes) modes += (modes.empty() ? "" : ",") + mode;
    std::string source = m.issues.empty() ? "-" : m.issues.front();
    rows.push_back({m.id, m.symptom, m.root_cause, modes, source});
    j.push_back({{"id", m.id},
                 {"title", m.title},
                 {"symptom", m.symptom},
                 {"root_cause", m.root_cause},
                 {"issues", m.issues},
                 {"modes", modes}});
  }
  ctx.emit({{"reproducers", j}}, text_table(rows));
}

int run_one(const Context& ctx, const ReproOptions& o) {
  auto env = environment(o);
  reproducers::require_build_dir(env);
  auto manifests = reproducers::load_manifests(env.manifest_dir);
  const auto& m = reproducers::find_manifest(manifests, o.id);
  nlohmann::json j = nlohmann::json::array();
  std::string text;
  bool failed = false;
  for (const auto& [mode, variant] : reproducers::planned_runs(m, reproducers::resolve_modes(o.mode, env))) {
    auto r = reproducers::run_variant(m, mode, variant, env);
    failed = failed || reproducers::is_failure(r.outcome);
    j.push_back(result_json(r));
    text += result_line(r) + "\n";
  }
  ctx.emit({{"id", m.id}, {"results", j}}, text);
  return failed ? 1 : 0;
}

int suite(const Context& ctx, const ReproOptions& o) {
  auto env = environment(o);
  reproducers::require_build_dir(env);
  auto manifests = reproducers::load_manifests(env.manifest_dir);
  auto db = ctx.open_or_create_db();
  reproducers::register_manifests(*db, manifests);
  bool tty = isatty(STDERR_FILENO);
  auto summary = reproducers::run_suite(*db, manifests, o.mode, env, [&](const reproducers::RunResult& r) {
    if (!ctx.json)
      std::cout << result_line(r) << "\n" << std::flush;
    else if (tty)
      std::cerr << "\r" << r.id << " [" << r.mode << "/" << r.variant << "] " << r.outcome << "\033[K"
                << std::flush;
  });
  if (tty && ctx.json) std::cerr << "\r\033[K";
  if (!o.junit.empty()) common::write_file_atomically(o.junit, reproducers::junit_xml(summary.results));
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : summary.results) results.push_back(result_json(r));
  std::string counts;
  for (const auto& [outcome, n] : summary.counts)
    counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + outcome;
  if (ctx.json) {
    std::cout << nlohmann::json{{"run", summary.run_id},
                                {"mode", o.mode},
                                {"counts", summary.counts},
                                {"healthy", summary.healthy()},
                                {"results", results}}
                     .dump()
              << "\n";
  } else {
    std::cout << "suite run " << summary.run_id << " (" << o.mode << "): " << counts
              << (summary.healthy() ? "" : " — FAILURES above") << "\n";
  }
  return summary.healthy() ? 0 : 1;
}

}  // namespace

void add_repro_commands(CLI::App& app, Context& ctx) {
  static ReproOptions o;
  static int exit_code = 0;
  auto* repro = app.add_subcommand(
      "repro", "Reproducers: small CUDA programs, buggy and fixed, that recreate a failure.");
  repro->require_subcommand(1);
  auto* list_cmd = repro->add_subcommand("list", "List the reproducers.\nExample: faultline repro list");
  list_cmd->add_option("--manifests", o.manifests,
                       "manifest directory (default: the source tree's reproducers/)");
  list_cmd->callback([&ctx] { list(ctx, o); });
  auto* run_cmd = repro->add_subcommand("run",
                                        "Run one reproducer's variants in a mode.\n"
                                        "Example: faultline repro run int16-bound-overflow --mode host");
  run_cmd->add_option("id", o.id, "reproducer id")->required();
  run_cmd->add_option("--mode", o.mode, "auto | build | host | gpu")
      ->check(CLI::IsMember({"auto", "build", "host", "gpu"}));
  run_cmd->add_option("--manifests", o.manifests, "manifest directory");
  run_cmd->add_option("--build-dir", o.build_dir, kBuildDirHelp);
  run_cmd->callback([&ctx] {
    if (run_one(ctx, o) != 0) throw CLI::RuntimeError(1);
  });

  auto* suite_cmd =
      app.add_subcommand("suite",
                         "Run every reproducer as a regression suite: fixed variants must pass, "
                         "buggy ones must still show their symptom. Results go to the store.\n"
                         "Example: faultline suite --mode auto --junit suite.xml");
  suite_cmd->add_option("--mode", o.mode, "auto (build + host + gpu if present) | build | host | gpu")
      ->check(CLI::IsMember({"auto", "build", "host", "gpu"}));
  suite_cmd->add_option("--junit", o.junit, "write JUnit XML here");
  suite_cmd->add_option("--manifests", o.manifests, "manifest directory");
  suite_cmd->add_option("--build-dir", o.build_dir, kBuildDirHelp);
  suite_cmd->callback([&ctx] {
    exit_code = suite(ctx, o);
    if (exit_code != 0) throw CLI::RuntimeError(exit_code);
  });

  auto* link = app.add_subcommand("link",
                                  "Link a labeled issue to a reproducer.\n"
                                  "Example: faultline link NVIDIA/cutlass#225 metadata-layout-mismatch");
  link->add_option("issue", o.issue, "OWNER/NAME#NUMBER")->required();
  link->add_option("id", o.id, "reproducer id")->required();
  link->add_option("--manifests", o.manifests, "manifest directory");
  link->callback([&ctx] {
    auto manifests = reproducers::load_manifests(manifest_dir(o));
    reproducers::find_manifest(manifests, o.id);
    auto [repo, number] = datasets::parse_issue_key(o.issue);
    auto db = ctx.open_db();
    int64_t issue_id = datasets::require_issue(*db, repo, number, "link");
    reproducers::register_manifests(*db, manifests);
    db->transaction([&] { datasets::link_reproducer(*db, issue_id, o.id); });
    ctx.emit({{"issue", o.issue}, {"reproducer", o.id}}, "linked " + o.issue + " to " + o.id + "\n");
  });

  auto* doctor = app.add_subcommand("doctor",
                                    "What this machine can run: GPU, driver, CUDA, nvcc, compute capability, "
                                    "and which reproducers' GPU mode applies.\nExample: faultline doctor");
  doctor->add_option("--manifests", o.manifests, "manifest directory");
  doctor->add_option("--build-dir", o.build_dir, kBuildDirHelp);
  doctor->callback([&ctx] {
    auto env = environment(o);
    std::vector<std::vector<std::string>> rows;
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : reproducers::describe(env)) {
      rows.push_back({k, v});
      j[k] = v;
    }
    std::string text = text_table(rows);
    nlohmann::json runnable = nlohmann::json::object();
    text += "reproducers:\n";
    for (const auto& m : reproducers::load_manifests(env.manifest_dir)) {
      auto skip = reproducers::gpu_skip_reason(m, env);
      std::string gpu = !m.modes.count("gpu") ? "no gpu mode"
                        : skip                ? "gpu: skipped (" + *skip + ")"
                                              : "gpu: runs";
      std::string host = m.modes.count("host") ? "host: runs" : "no host mode";
      runnable[m.id] = {{"gpu", gpu}, {"host", host}};
      text += "  " + m.id + ": " + host + "; " + gpu + "\n";
    }
    j["reproducers"] = runnable;
    ctx.emit(j, text);
  });
}

}  // namespace faultline::cli
