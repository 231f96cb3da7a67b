#include "reproducers/slurm_submission.hpp"

#include <filesystem>
#include <set>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "reproducers/runner.hpp"
#include "reproducers/slurm_collect.hpp"
#include "reproducers/slurm_script.hpp"

namespace faultline::reproducers {

std::vector<std::string> cluster_modes(const std::string& mode, const std::string& gres) {
  if (mode != "auto") return resolve_modes(mode, {});
  std::vector<std::string> modes{"build", "host"};
  if (gres.find("gpu") != std::string::npos) modes.push_back("gpu");
  return modes;
}

PreparedRun prepare_slurm_run(const SlurmSuiteOptions& o, const std::vector<Manifest>& manifests,
                              const Durations& durations) {
  if (o.run_dir.empty()) throw Error("a Slurm run needs a run directory");
  const std::string dir = std::filesystem::absolute(o.run_dir).lexically_normal().string();
  // The scripts write each task's number where "{task}" stands: in a path of the user's it would be too (the
  // run directory as the scripts name it, whole).
  for (const auto& [option, path] : {std::pair<const char*, const std::string&>{"--run-dir", dir},
                                     {"--build-dir", o.build_dir},
                                     {"--manifests", o.manifest_dir},
                                     {"faultline's path", o.faultline}}) {
    if (path.find("{task}") != std::string::npos)
      throw Error(std::string(option) + " '" + path + "' holds '{task}', which the job scripts replace");
  }
  // plan.json is written last: shard files or results without it are what an interrupted planning left.
  if (std::filesystem::exists(plan_path(dir)) || std::filesystem::exists(shard_path(dir, 0)) ||
      std::filesystem::exists(dir + "/results"))
    throw Error(
        dir + " already holds a planned run (plan.json, shard files or results): choose another " +
        "--run-dir" +
        (std::filesystem::exists(plan_path(dir))
             ? " (to submit this run's own scripts, never submitted: sbatch " + dir + "/array-*.sbatch)"
             : std::string()));
  PreparedRun out;
  out.plan.run = new_run_token();
  out.plan.mode = o.mode;
  out.plan.modes = cluster_modes(o.mode, o.gres);
  out.plan.repeat = o.repeat;
  out.plan.shards = o.shards;
  out.plan.max_parallel = o.max_parallel;
  std::set<std::string> names;
  for (const auto& c : o.constraints.empty() ? std::vector<std::string>{""} : o.constraints) {
    SlurmArray array{array_name(c), c};
    if (!names.insert(array.name).second)
      throw Error("--constraint '" + c + "' gives the array name '" + array.name + "' a second time");
    out.plan.arrays.push_back(array);
  }
  if (o.repeat < 1) throw Error("--repeat must be at least 1, not " + std::to_string(o.repeat));
  out.shards = plan_shards(planned_suite_runs(manifests, out.plan.modes), o.shards, durations, o.repeat);
  for (const auto& shard : out.shards.shards) {
    out.plan.shard_runs.emplace_back();
    for (const auto& r : shard.runs) out.plan.shard_runs.back().push_back(run_name(r.id, r.mode, r.variant));
  }
  check_time_limit(out.shards, o.time_limit_min);

  std::vector<std::string> scripts;
  for (const auto& array : out.plan.arrays) {
    SbatchSettings s;
    s.tasks = o.shards;
    s.max_parallel = o.max_parallel;
    s.partition = o.partition;
    s.gres = o.gres;
    s.constraint = array.constraint;
    s.time_limit_min = o.time_limit_min;
    s.output = logs_dir(dir) + "/" + array.name + "-%A_%a.out";
    std::vector<std::string> command{o.faultline,    "suite",
                                     "--shard-file", dir + "/shard-{task}.json",
                                     "--results",    results_dir(dir, array.name) + "/task-{task}.json",
                                     "--build-dir",  o.build_dir,
                                     "--manifests",  o.manifest_dir};
    scripts.push_back(sbatch_script(s, command));  // every directive is checked before anything is written
  }
  std::filesystem::create_directories(logs_dir(dir));
  for (int k = 0; k < o.shards; ++k)
    write_shard_file(shard_path(dir, k), {out.plan.run, k, o.repeat, out.shards.shards[k].runs});
  for (size_t i = 0; i < out.plan.arrays.size(); ++i) {
    const auto& name = out.plan.arrays[i].name;
    std::filesystem::create_directories(results_dir(dir, name));
    common::write_file_atomically(script_path(dir, name), scripts[i]);
    std::filesystem::permissions(script_path(dir, name), std::filesystem::perms::owner_exec,
                                 std::filesystem::perm_options::add);
    out.scripts.push_back(script_path(dir, name));
  }
  write_run_plan(dir, out.plan);  // last: a directory with plan.json is a complete run directory
  return out;
}

std::vector<Resubmission> lost_shards_to_resubmit(const std::string& run_dir) {
  const std::string dir = std::filesystem::absolute(run_dir).lexically_normal().string();
  std::vector<Resubmission> out;
  const CollectedRun run = collect_run(dir);
  for (const auto& array : run.arrays) {
    if (!array.lost_shards.empty())
      out.push_back(
          {array.array.name, script_path(dir, array.array.name), array.lost_shards, run.plan.max_parallel});
  }
  return out;
}

}  // namespace faultline::reproducers
