#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "common/error.hpp"
#include "reproducers/slurm_client.hpp"
#include "reproducers/slurm_script.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::reproducers;

TEST(SlurmScript, DirectivesCarryTheArrayPartitionGresConstraintAndTimeLimit) {
  SbatchSettings s;
  s.tasks = 3;
  s.max_parallel = 2;
  s.partition = "gpu";
  s.gres = "gpu:1";
  s.constraint = "sm_90";
  s.time_limit_min = 30;
  s.output = "/runs/r1/logs/sm_90-%A_%a.out";
  std::string script =
      sbatch_script(s, {"/opt/faultline", "suite", "--shard-file", "/runs/r1/shard-{task}.json"});
  EXPECT_EQ(
      script,
      "#!/bin/bash\n"
      "# The faultline reproducer suite as a Slurm job array: task K runs shard K. A task writes its "
      "results\n"
      "# file only when its whole shard finished, so `faultline suite collect` reports a task that died as "
      "lost.\n"
      "#SBATCH --job-name=faultline-suite\n"
      "#SBATCH --array=0-2%2\n"
      "#SBATCH --partition=gpu\n"
      "#SBATCH --gres=gpu:1\n"
      "#SBATCH --constraint=sm_90\n"
      "#SBATCH --time=30\n"
      "#SBATCH --output=/runs/r1/logs/sm_90-%A_%a.out\n"
      "exec '/opt/faultline' 'suite' '--shard-file' '/runs/r1/shard-'\"${SLURM_ARRAY_TASK_ID}\"'.json'\n");
}

TEST(SlurmScript, UnsetSettingsLeaveTheirDirectivesOut) {
  SbatchSettings s;
  s.tasks = 1;
  std::string script = sbatch_script(s, {"x"});
  EXPECT_NE(script.find("#SBATCH --array=0-0\n"), std::string::npos);
  for (const char* absent : {"--partition", "--gres", "--constraint", "--output", "%"})
    EXPECT_EQ(script.find(absent), std::string::npos) << absent;
}

TEST(SlurmScript, ALineBreakInASettingIsRefused) {
  SbatchSettings s;
  s.partition = "gpu\n#SBATCH --uid=0";
  EXPECT_THROW(sbatch_script(s, {"x"}), faultline::Error);
  s.partition = "gpu";
  s.time_limit_min = 0;
  EXPECT_THROW(sbatch_script(s, {"x"}), faultline::Error);
}

TEST(SlurmScript, ShellQuotingSurvivesSingleQuotes) { EXPECT_EQ(shell_quote("it's"), "'it'\\''s'"); }

TEST(SlurmClient, SqueueStatesCountPendingRunningAndTheRestAsDone) {
  // 5 tasks: squeue lists 1 pending, 1 running, 1 completing (still running) and 1 completed; the fifth
  // has left the queue. By hand: pending 1, running 2, done 5 - 1 - 2 = 2.
  EXPECT_EQ(progress_from_states("PENDING\nRUNNING\nCOMPLETING\nCOMPLETED\n", 5), (ArrayProgress{1, 2, 2}));
  EXPECT_EQ(progress_from_states("", 3), (ArrayProgress{0, 0, 3}));
}

// sbatch's refusal comes back in one line (it writes several).
TEST(SlurmClient, AnSbatchRefusalIsOneLine) {
  faultline::testing::TempDir dir;
  const std::string sbatch = (dir.path() / "sbatch").string();
  std::ofstream(sbatch) << "#!/bin/sh\necho 'sbatch: error: invalid partition specified: gpu'\n"
                           "echo 'sbatch: error: Batch job submission failed'\nexit 1\n";
  chmod(sbatch.c_str(), 0755);
  const std::string path = std::getenv("PATH");
  setenv("PATH", (dir.path().string() + ":" + path).c_str(), 1);
  std::string message;
  try {
    faultline::reproducers::submit_array("/x/array-default.sbatch", "");
  } catch (const faultline::Error& e) {
    message = e.what();
  }
  setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(
      message,
      "sbatch /x/array-default.sbatch failed (exit 1): sbatch: error: invalid partition specified: gpu; "
      "sbatch: error: Batch job submission failed");
}
