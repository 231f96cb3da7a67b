#include "reproducers/slurm_task.hpp"

#include <cstdlib>

#include "common/error.hpp"
#include "reproducers/runner.hpp"

namespace faultline::reproducers {

namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

TaskResults run_shard(const ShardFile& shard, const std::vector<Manifest>& manifests,
                      const Environment& env) {
  // Every run is checked before the first starts, so a wrong shard file fails at once, not halfway.
  for (const auto& run : shard.runs) {
    const Manifest& m = find_manifest(manifests, run.id);
    if (!m.modes.count(run.mode) || !m.modes.at(run.mode).count(run.variant)) {
      throw Error("shard " + std::to_string(shard.shard) + ": " + run.id + " has no " + run.mode + "/" +
                  run.variant + " run in its manifest");
    }
  }
  TaskResults task;
  task.run = shard.run;
  task.shard = shard.shard;
  task.node = env.node;
  task.cuda_toolkit = env.cuda_toolkit.empty() ? "none" : env.cuda_toolkit;
  task.compute_capability = compute_capability_text(env);
  if (env.gpu) {
    task.device = env.gpu->name;
    task.driver = env.gpu->driver.empty() ? "none" : env.gpu->driver;
  }
  task.slurm_job_id = env_or_empty("SLURM_ARRAY_JOB_ID");
  task.slurm_task_id = env_or_empty("SLURM_ARRAY_TASK_ID");
  for (const auto& run : shard.runs) {
    task.results.push_back(
        run_repeated(find_manifest(manifests, run.id), run.mode, run.variant, env, shard.repeat));
  }
  return task;
}

}  // namespace faultline::reproducers
