#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/text_table.hpp"
#include "common/atomic_file.hpp"
#include "common/clock.hpp"
#include "common/error.hpp"
#include "common/one_line.hpp"
#include "common/repository_name.hpp"
#include "datasets/store/issue_record.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/suite_store.hpp"
#include "reproducers/doctor.hpp"
#include "reproducers/metadata_table.hpp"
#include "reproducers/run_result_json.hpp"
#include "reproducers/slurm_client.hpp"
#include "reproducers/slurm_collect.hpp"
#include "reproducers/slurm_doctor.hpp"
#include "reproducers/slurm_script.hpp"
#include "reproducers/slurm_submission.hpp"
#include "reproducers/slurm_task.hpp"
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

// What `suite` takes beyond the shared options: the Slurm submission, the task side and collect.
struct SuiteCommandOptions : ReproOptions {
  bool slurm = false;
  std::string partition;
  std::string gres;
  std::vector<std::string> constraints;
  int shards = 4;
  int max_parallel = 0;
  int time_limit_min = 60;
  std::string run_dir;
  std::string faultline;
  bool submit = false;
  bool wait = false;
  std::string rerun_lost;
  std::string shard_file;
  std::string results;
  std::string collect_dir;
};

struct DoctorOptions : ReproOptions {
  bool slurm = false;
  std::string partition;
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

std::string result_line(const reproducers::RunResult& r) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2fs", r.seconds);
  std::string stable = r.stability.runs > 1 ? ", stable " + std::to_string(r.stability.as_expected) + "/" +
                                                  std::to_string(r.stability.runs) + " " + r.stability.status
                                            : "";
  // The detail quotes a harness's or compiler's output: escapes and line breaks in it are written out.
  return reproducers::run_name(r.id, r.mode, r.variant) + " " + r.outcome + " (" + seconds + stable + ") — " +
         common::one_line(r.detail);
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
    Context::print_json({{"reproducers", reproducers::metadata_json(rows)}});
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
  const auto runs = reproducers::planned_runs(m, reproducers::resolve_modes(o.mode, env));
  // A reproducer without the mode asked for would run nothing and exit 0, as if it had passed.
  if (runs.empty()) {
    std::string has;
    for (const auto& [mode, variants] : m.modes) has += (has.empty() ? "" : ", ") + mode;
    throw Error("repro run: " + m.id + " has no run in --mode " + o.mode + " (its modes: " + has + ")");
  }
  for (const auto& [mode, variant] : runs) {
    results.push_back(reproducers::run_variant(m, mode, variant, env));
    j.push_back(reproducers::run_result_json(results.back()));
    text += result_line(results.back()) + "\n";
  }
  ctx.emit({{"id", m.id}, {"results", j}}, text);
  auto problems = reproducers::run_problems(o.mode, results);
  for (const auto& p : problems) std::cerr << "repro: " << p << "\n";
  return problems.empty() ? 0 : 1;
}

void write_junit(const std::string& path, const std::vector<reproducers::JunitSuite>& suites) {
  common::write_file_atomically(path, reproducers::junit_xml(suites));
}

nlohmann::json summary_json(const reproducers::SuiteSummary& summary, int repeat) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : summary.results) results.push_back(reproducers::run_result_json(r));
  auto problems = summary.problems();
  return {{"run", summary.run_id},       {"mode", summary.mode},     {"repeat", repeat},
          {"modes", summary.modes},      {"counts", summary.counts}, {"summary", summary.counts_line()},
          {"healthy", problems.empty()}, {"problems", problems},     {"results", results}};
}

int suite(const Context& ctx, const ReproOptions& o) {
  auto env = environment(o);
  reproducers::require_build_dir(env);
  auto manifests = reproducers::load_manifests(env.manifest_dir);
  auto db = ctx.open_or_create_db();
  reproducers::register_manifests(*db, manifests);
  bool tty = isatty(STDERR_FILENO);
  // With the JUnit file on stdout (--junit /dev/stdout), stdout holds it alone; the lines go to stderr.
  std::ostream& lines = Context::notes_about(o.junit);
  auto summary =
      reproducers::run_suite(*db, manifests, {o.mode, o.repeat}, env, [&](const reproducers::RunResult& r) {
        if (!ctx.json)
          lines << result_line(r) << "\n" << std::flush;
        else if (tty)
          std::cerr << "\r" << r.id << " [" << r.mode << "/" << r.variant << "] " << r.outcome << "\033[K"
                    << std::flush;
      });
  if (tty && ctx.json) std::cerr << "\r\033[K";
  if (!o.junit.empty()) write_junit(o.junit, {reproducers::junit_suite(summary.results)});
  auto problems = summary.problems();
  ctx.emit_about_output(o.junit, summary_json(summary, o.repeat),
                        "suite run " + std::to_string(summary.run_id) + " (" + o.mode + ", repeat " +
                            std::to_string(o.repeat) + "): " + summary.counts_line() + "\n");
  for (const auto& p : problems) std::cerr << "suite: " << p << "\n";
  return problems.empty() ? 0 : 1;
}

// One Slurm array task: its shard's runs, written to --results; no store (the nodes share none).
int run_shard_task(const Context& ctx, const SuiteCommandOptions& o) {
  auto env = environment(o);
  reproducers::require_build_dir(env);
  auto shard = reproducers::read_shard_file(o.shard_file);
  auto task = reproducers::run_shard(shard, reproducers::load_manifests(env.manifest_dir), env);
  reproducers::write_task_results(o.results, task);
  std::string text;
  for (const auto& r : task.results) text += result_line(r) + "\n";
  ctx.emit_about_output(o.results,
                        {{"shard", task.shard},
                         {"node", task.node},
                         {"results_file", o.results},
                         {"runs", task.results.size()}},
                        text + "shard " + std::to_string(task.shard) + " on " + task.node + ": " +
                            std::to_string(task.results.size()) + " runs written to " +
                            common::one_line(o.results) + "\n");
  return 0;  // the outcomes are judged when the run is collected
}

struct SubmittedJob {
  std::string array;
  std::string job_id;
  int tasks = 0;
};

// Follows the arrays with squeue until none of their tasks is pending or running; a line on stderr each
// time the counts change.
void wait_for_jobs(const std::vector<SubmittedJob>& jobs) {
  std::map<std::string, reproducers::ArrayProgress> last;
  for (;;) {
    bool active = false;
    for (const auto& job : jobs) {
      auto p = reproducers::array_progress(job.job_id, job.tasks);
      active = active || p.pending + p.running > 0;
      if (!last.count(job.job_id) || !(last[job.job_id] == p)) {
        std::cerr << "slurm: job " << job.job_id << " (" << job.array << "): " << p.pending << " pending, "
                  << p.running << " running, " << p.done << " done of " << job.tasks << "\n";
        last[job.job_id] = p;
      }
    }
    if (!active) return;
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
}

// Submits (with --submit), records the job ids and follows them (with --wait); otherwise says how.
nlohmann::json submit_or_show(const Context& ctx, const SuiteCommandOptions& o, const std::string& run_dir,
                              const std::vector<reproducers::Resubmission>& arrays, std::string& text) {
  nlohmann::json out = nlohmann::json::array();
  std::vector<SubmittedJob> jobs;
  std::unique_ptr<datasets::Database> db;
  if (o.submit) db = ctx.open_or_create_db();
  for (const auto& a : arrays) {
    std::string indexes = reproducers::array_indexes(a.shards);
    // --array on the command line replaces the script's, so it carries the script's %K too.
    const std::string array_spec = indexes + (a.max_parallel > 0 ? "%" + std::to_string(a.max_parallel) : "");
    std::string line = "sbatch --parsable" + (o.rerun_lost.empty() ? "" : " --array=" + array_spec) + " " +
                       reproducers::shell_quote(a.script);
    nlohmann::json entry{{"array", a.array}, {"script", a.script}, {"shards", a.shards}, {"sbatch", line}};
    if (o.submit) {
      std::string job = reproducers::submit_array(a.script, o.rerun_lost.empty() ? "" : array_spec);
      db->transaction([&] { datasets::record_slurm_job(*db, {run_dir, a.array, job, indexes}); });
      entry["job_id"] = job;
      jobs.push_back({a.array, job, static_cast<int>(a.shards.size())});
      text += "submitted " + a.script + " as job " + job + " (shards " + indexes + ")\n";
    } else {
      text += "script: " + a.script + "\nsubmit: " + line + "\n";
    }
    out.push_back(entry);
  }
  if (o.wait) wait_for_jobs(jobs);
  if (o.submit) text += "collect: faultline suite collect " + reproducers::shell_quote(run_dir) + "\n";
  return out;
}

std::string this_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

// slurm-run-20261201T115500Z in the current directory (which the nodes must share).
std::string default_run_dir() {
  std::string stamp;
  for (char c : common::utc_now()) {
    if (c != ':' && c != '-') stamp += c;
  }
  return "slurm-run-" + stamp;
}

int slurm_suite(const Context& ctx, const SuiteCommandOptions& o) {
  std::string text;
  if (!o.rerun_lost.empty()) {
    std::string run_dir = std::filesystem::absolute(o.rerun_lost).lexically_normal().string();
    auto lost = reproducers::lost_shards_to_resubmit(run_dir);
    if (lost.empty()) {
      ctx.emit({{"run_dir", run_dir}, {"arrays", nlohmann::json::array()}}, run_dir + ": no shard is lost\n");
      return 0;
    }
    auto arrays = submit_or_show(ctx, o, run_dir, lost, text);
    ctx.emit({{"run_dir", run_dir}, {"arrays", arrays}}, text);
    return 0;
  }
  auto env = environment(o);
  reproducers::require_build_dir(env);
  auto manifests = reproducers::load_manifests(env.manifest_dir);
  // Earlier durations balance the shards; planning reads the store only when there is one.
  reproducers::Durations durations;
  if (std::filesystem::exists(ctx.db_path))
    durations = reproducers::durations_from(datasets::latest_suite_results(*ctx.open_db()));
  reproducers::SlurmSuiteOptions s;
  s.run_dir = o.run_dir.empty() ? default_run_dir() : o.run_dir;
  s.mode = o.mode;
  s.repeat = o.repeat;
  s.shards = o.shards;
  s.max_parallel = o.max_parallel;
  s.time_limit_min = o.time_limit_min;
  s.partition = o.partition;
  s.gres = o.gres;
  s.constraints = o.constraints;
  s.faultline = std::filesystem::absolute(o.faultline.empty() ? this_executable() : o.faultline).string();
  s.build_dir = std::filesystem::absolute(env.build_dir).lexically_normal().string();
  s.manifest_dir = std::filesystem::absolute(env.manifest_dir).lexically_normal().string();
  auto prepared = reproducers::prepare_slurm_run(s, manifests, durations);
  std::string run_dir = std::filesystem::path(prepared.scripts.front()).parent_path().string();
  nlohmann::json shards = nlohmann::json::array();
  text +=
      "run directory " + run_dir + ": " + std::to_string(prepared.shards.shards.size()) + " shards (" +
      (prepared.shards.by_durations ? "balanced by earlier durations" : "round-robin: no earlier durations") +
      ")\n";
  for (size_t k = 0; k < prepared.shards.shards.size(); ++k) {
    const auto& shard = prepared.shards.shards[k];
    shards.push_back({{"runs", shard.runs.size()}, {"estimate_s", shard.estimate_s}});
    char line[128];
    std::snprintf(line, sizeof line, "  shard %zu: %zu runs", k, shard.runs.size());
    text += line;
    if (prepared.shards.by_durations) {
      std::snprintf(line, sizeof line, ", about %.0f s by earlier durations", shard.estimate_s);
      text += line;
    }
    text += "\n";
  }
  std::vector<int> all(prepared.plan.shards);
  for (int k = 0; k < prepared.plan.shards; ++k) all[k] = k;
  std::vector<reproducers::Resubmission> arrays;
  for (size_t i = 0; i < prepared.plan.arrays.size(); ++i)
    arrays.push_back({prepared.plan.arrays[i].name, prepared.scripts[i], all});
  auto submitted = submit_or_show(ctx, o, run_dir, arrays, text);
  ctx.emit({{"run_dir", run_dir},
            {"modes", prepared.plan.modes},
            {"balanced_by", prepared.shards.by_durations ? "durations" : "round-robin"},
            {"shards", shards},
            {"arrays", submitted}},
           text);
  return 0;
}

int collect(const Context& ctx, const SuiteCommandOptions& o) {
  std::string run_dir = std::filesystem::absolute(o.collect_dir).lexically_normal().string();
  auto run = reproducers::collect_run(run_dir);
  const auto unreported = reproducers::drop_unreported_arrays(run, run_dir);  // before a store is made
  auto db = ctx.open_or_create_db();
  auto summaries = reproducers::record_collected(*db, run_dir, run);
  std::vector<reproducers::JunitSuite> suites;  // one per array
  std::vector<std::string> problems;
  nlohmann::json arrays = nlohmann::json::array();
  std::string text;
  for (size_t i = 0; i < summaries.size(); ++i) {
    const auto& summary = summaries[i];
    const auto& array = run.arrays[i];
    for (const auto& r : summary.results) text += result_line(r) + "\n";
    text += "suite run " + std::to_string(summary.run_id) + " (array " + array.array.name + ", " +
            std::to_string(run.plan.shards) + " shards, " + std::to_string(array.lost_shards.size()) +
            " lost): " + summary.counts_line() + "\n";
    auto j = summary_json(summary, run.plan.repeat);
    j["array"] = array.array.name;
    j["lost_shards"] = array.lost_shards;
    arrays.push_back(j);
    for (const auto& p : summary.problems()) problems.push_back(array.array.name + ": " + p);
    for (const auto& p : reproducers::shards_without_a_gpu(run, array))
      problems.push_back(array.array.name + ": " + p);
    suites.push_back(reproducers::junit_suite(summary.results, array.array.name));
  }
  if (!o.junit.empty()) write_junit(o.junit, suites);
  for (const auto& name : unreported)
    problems.push_back(name + ": no task has written its results; not recorded (wait for it, or submit " +
                       reproducers::script_path(run_dir, name) + ")");
  ctx.emit_about_output(
      o.junit,
      {{"run_dir", run_dir}, {"arrays", arrays}, {"not_recorded", unreported}, {"healthy", problems.empty()}},
      text);
  for (const auto& p : problems) std::cerr << "suite collect: " << p << "\n";
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
  // The issue as stored, which a name in another case or a former name leads to.
  const std::string key = datasets::load_issue(*db, issue_id).key();
  ctx.emit({{"issue", key}, {"reproducer", o.id}}, "linked " + key + " to " + o.id + "\n");
}

int slurm_doctor(const Context& ctx, const DoctorOptions& o) {
  auto checks = reproducers::slurm_checks(o.partition);
  std::vector<std::vector<std::string>> rows;
  nlohmann::json j = nlohmann::json::array();
  bool ok = true;
  for (const auto& c : checks) {
    rows.push_back({c.what, c.ok ? "ok" : "not ok", c.detail});
    j.push_back({{"what", c.what}, {"ok", c.ok}, {"detail", c.detail}});
    ok = ok && c.ok;
  }
  ctx.emit({{"slurm", j}, {"ready", ok}}, text_table(rows));
  return ok ? 0 : 1;
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

void add_repro_list_and_run(CLI::App& app, Context& ctx) {
  auto* repro = app.add_subcommand(
      "repro", "Reproducers: small CUDA programs, buggy and fixed, that recreate a failure.");
  repro->require_subcommand(1);
  auto* list_cmd = repro->add_subcommand(
      "list",
      "List the reproducers: id, symptom, root cause, source issue, fix, what each mode checks and the last "
      "outcome in the store.\nExample: faultline repro list --format md");
  auto list_options = std::make_shared<ReproOptions>();
  list_cmd
      ->add_option("--manifests", list_options->manifests,
                   "manifest directory (default: the source tree's reproducers/)")
      ->check(not_empty());
  list_cmd->add_option("--format", list_options->format, "text | md | csv | json")
      ->check(CLI::IsMember({"text", "md", "csv", "json"}));
  list_cmd->callback([&ctx, list_options] { list(ctx, *list_options); });
  auto* run_cmd = repro->add_subcommand("run",
                                        "Run one reproducer's variants in a mode.\n"
                                        "Example: faultline repro run int16-bound-overflow --mode host");
  auto run_options = std::make_shared<ReproOptions>();
  run_cmd->add_option("id", run_options->id, "reproducer id")->required();
  run_cmd->add_option("--mode", run_options->mode, "auto | build | host | gpu")
      ->check(CLI::IsMember({"auto", "build", "host", "gpu"}));
  run_cmd->add_option("--manifests", run_options->manifests, "manifest directory")->check(not_empty());
  run_cmd->add_option("--build-dir", run_options->build_dir, kBuildDirHelp);
  run_cmd->callback([&ctx, run_options] {
    if (run_one(ctx, *run_options) != 0) throw CLI::RuntimeError(1);
  });
}

void add_suite(CLI::App& app, Context& ctx) {
  auto* suite_cmd = app.add_subcommand(
      "suite",
      "Run every reproducer as a regression suite: buggy variants must still show their symptom, fixed "
      "ones must behave. Results go to the store. Exits non-zero on a failure and on every problem the run "
      "names: gpu mode run (asked for, or a GPU found) with every GPU result skipped, --mode build or host "
      "with every result skipped, a mode asked for that no reproducer has, a GPU harness skipping itself "
      "where the runner expected it to run. With --slurm, writes the suite as Slurm "
      "job arrays instead.\n"
      "Example: faultline suite --mode auto --junit suite.xml; faultline suite --mode gpu --repeat 30; "
      "faultline suite --slurm --gres gpu:1 --constraint sm_90 --shards 8 --submit --wait");
  auto o = std::make_shared<SuiteCommandOptions>();
  suite_cmd->add_option("--mode", o->mode, "auto (build + host + gpu if present) | build | host | gpu")
      ->check(CLI::IsMember({"auto", "build", "host", "gpu"}));
  suite_cmd->add_option("--repeat", o->repeat, "runs per variant, for stability (build mode runs once)")
      ->check(whole_number_in(1, std::numeric_limits<int>::max()));
  suite_cmd->add_option("--junit", o->junit, "write JUnit XML here")->check(not_empty());
  suite_cmd->add_option("--manifests", o->manifests, "manifest directory")->check(not_empty());
  suite_cmd->add_option("--build-dir", o->build_dir, kBuildDirHelp);
  auto* slurm =
      suite_cmd->add_flag("--slurm", o->slurm,
                          "write the suite as Slurm job arrays into --run-dir (auto mode there: build + "
                          "host, + gpu when --gres asks for a GPU)");
  suite_cmd->add_option("--partition", o->partition, "Slurm partition (default: the cluster's)")
      ->needs(slurm);
  suite_cmd->add_option("--gres", o->gres, "generic resources per task, e.g. gpu:1")->needs(slurm);
  suite_cmd
      ->add_option("--constraint", o->constraints, "node feature (a GPU architecture); one job array each")
      ->needs(slurm);
  suite_cmd->add_option("--shards", o->shards, "array tasks, balanced by earlier durations (default 4)")
      ->check(whole_number_in(1, std::numeric_limits<int>::max()))
      ->needs(slurm);
  suite_cmd->add_option("--max-parallel", o->max_parallel, "tasks running at once (the %K of --array)")
      ->check(whole_number_in(1, std::numeric_limits<int>::max()))
      ->needs(slurm);
  suite_cmd->add_option("--time-limit", o->time_limit_min, "minutes per task (default 60)")
      ->check(whole_number_in(1, std::numeric_limits<int>::max()))
      ->needs(slurm);
  suite_cmd
      ->add_option("--run-dir", o->run_dir,
                   "where the shards, scripts and results go (default slurm-run-TIME)")
      ->needs(slurm);
  suite_cmd
      ->add_option("--faultline", o->faultline,
                   "the faultline the tasks run (default this one; a GPU "
                   "bundle's gpu-bundle/faultline)")
      ->needs(slurm);
  auto* submit =
      suite_cmd->add_flag("--submit", o->submit, "call sbatch and record the job ids")->needs(slurm);
  suite_cmd->add_flag("--wait", o->wait, "follow the arrays until they end (progress on stderr)")
      ->needs(submit);
  suite_cmd->add_option("--rerun-lost", o->rerun_lost, "RUN_DIR: the lost shards of a run again")
      ->needs(slurm);
  auto* shard_file =
      suite_cmd->add_option("--shard-file", o->shard_file, "run one shard (what an array task does)")
          ->excludes(slurm);
  suite_cmd->add_option("--results", o->results, "the shard's results file")
      ->check(not_empty())
      ->needs(shard_file);
  shard_file->needs(suite_cmd->get_option("--results"));

  auto* collect_cmd = suite_cmd->add_subcommand(
      "collect",
      "Merge a Slurm run's task results into the store, one suite run per job array; the runs of a task that "
      "wrote no results are lost (and the command exits non-zero).\nExample: faultline suite collect "
      "slurm-run");
  collect_cmd->add_option("run_dir", o->collect_dir, "the run directory of suite --slurm")->required();
  collect_cmd->add_option("--junit", o->junit, "write JUnit XML here")->check(not_empty());
  collect_cmd->callback([&ctx, o] {
    int code = collect(ctx, *o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
  suite_cmd->callback([&ctx, o, collect_cmd] {
    if (collect_cmd->parsed()) return;
    int code = !o->shard_file.empty() ? run_shard_task(ctx, *o)
               : o->slurm             ? slurm_suite(ctx, *o)
                                      : suite(ctx, *o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

void add_link_and_doctor(CLI::App& app, Context& ctx) {
  auto* link_cmd = app.add_subcommand(
      "link",
      "Link an issue of the store to a reproducer modeled on it (show tells the links of any "
      "issue, the report those of its cases, triage those of labeled issues).\n"
      "Example: faultline link NVIDIA/cutlass#492 metadata-layout-mismatch");
  auto link_options = std::make_shared<ReproOptions>();
  link_cmd->add_option("issue", link_options->issue, "OWNER/NAME#NUMBER")->required()->check(issue_key());
  link_cmd->add_option("id", link_options->id, "reproducer id")->required();
  link_cmd->add_option("--manifests", link_options->manifests, "manifest directory")->check(not_empty());
  link_cmd->callback([&ctx, link_options] { link(ctx, *link_options); });

  auto* doctor_cmd =
      app.add_subcommand("doctor",
                         "What this machine can run: GPU, driver, CUDA, nvcc, compute capability, "
                         "and which reproducers' GPU mode applies; with --slurm, whether the Slurm "
                         "commands and the partition are there.\nExample: faultline doctor");
  auto doctor_options = std::make_shared<DoctorOptions>();
  doctor_cmd->add_option("--manifests", doctor_options->manifests, "manifest directory")->check(not_empty());
  doctor_cmd->add_option("--build-dir", doctor_options->build_dir, kBuildDirHelp);
  auto* slurm = doctor_cmd->add_flag("--slurm", doctor_options->slurm,
                                     "check sbatch, squeue, scontrol and the partition");
  doctor_cmd->add_option("--partition", doctor_options->partition, "the partition to check")->needs(slurm);
  doctor_cmd->callback([&ctx, doctor_options] {
    if (!doctor_options->slurm) return doctor(ctx, *doctor_options);
    if (slurm_doctor(ctx, *doctor_options) != 0) throw CLI::RuntimeError(1);
  });
}

}  // namespace

void add_repro_commands(CLI::App& app, Context& ctx) {
  add_repro_list_and_run(app, ctx);
  add_suite(app, ctx);
  add_link_and_doctor(app, ctx);
}

}  // namespace faultline::cli
