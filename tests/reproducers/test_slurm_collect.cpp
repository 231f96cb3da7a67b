#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/text_file.hpp"
#include "datasets/store/suite_store.hpp"
#include "reproducers/manifest.hpp"
#include "reproducers/run_result_json.hpp"
#include "reproducers/slurm_collect.hpp"
#include "reproducers/slurm_submission.hpp"
#include "reproducers/slurm_task_results.hpp"
#include "reproducers/suite.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::reproducers;

namespace {

Manifest manifest(const std::string& id) {
  return parse_manifest(
      R"({"id": ")" + id + R"(", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
    "issues": ["https://github.com/o/r/issues/1"], "mechanism": "m", "timeout_s": 5, "requirements": {"min_compute_capability": "7.0"},
    "modes": {"host": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}}}})",
      id + ".json");
}

struct Fixture {
  faultline::testing::TempDir dir;
  std::string run_dir = (dir.path() / "run").string();
  PreparedRun prepared;

  // Two manifests with host buggy and fixed, 2 shards, no earlier durations. By hand, the suite's order is
  // a/buggy, a/fixed, b/buggy, b/fixed, dealt round-robin: shard 0 = the buggy ones, shard 1 = the fixed
  // ones.
  Fixture() {
    SlurmSuiteOptions o;
    o.run_dir = run_dir;
    o.mode = "host";
    o.shards = 2;
    o.faultline = "/opt/faultline";
    o.build_dir = "/opt/build";
    o.manifest_dir = "/opt/reproducers";
    prepared = prepare_slurm_run(o, {manifest("a"), manifest("b")}, {});
  }

  RunResult result(const std::string& id, const std::string& variant, const std::string& outcome) {
    RunResult r;
    r.id = id;
    r.mode = "host";
    r.variant = variant;
    r.outcome = outcome;
    r.detail = "observed";
    r.node = "node7";
    const bool behaved = outcome != "fail" && outcome != "not-reproduced";
    r.stability = behaved ? Stability{1, 1, "reproducible"} : Stability{1, 0, "unreproducible"};
    return r;
  }

  void task(int shard, std::vector<RunResult> results) {
    TaskResults t;
    t.run = prepared.plan.run;
    t.shard = shard;
    t.node = "node7";
    t.results = std::move(results);
    write_task_results(task_results_path(run_dir, "default", shard), t);
  }
};

std::vector<std::string> outcomes(const CollectedArray& a) {
  std::vector<std::string> out;
  for (const auto& c : a.results)
    out.push_back(c.result.id + "/" + c.result.variant + "=" + c.result.outcome);
  return out;
}

}  // namespace

TEST(SlurmCollect, ARunDirectoryHoldsThePlanTheShardsAndOneScript) {
  Fixture f;
  EXPECT_EQ(read_shard_file(shard_path(f.run_dir, 0)).runs,
            (std::vector<PlannedRun>{{"a", "host", "buggy"}, {"b", "host", "buggy"}}));
  EXPECT_EQ(read_shard_file(shard_path(f.run_dir, 1)).runs,
            (std::vector<PlannedRun>{{"a", "host", "fixed"}, {"b", "host", "fixed"}}));
  // A shard file whose runs appear twice is refused: which list the task would run is not clear.
  {
    const std::string path = shard_path(f.run_dir, 1);
    const std::string kept = faultline::common::read_text_file(path);
    ASSERT_EQ(kept.front(), '{');
    std::ofstream(path) << "{\"runs\": []," << kept.substr(1);
    try {
      read_shard_file(path);
      ADD_FAILURE() << "read";
    } catch (const faultline::Error& e) {
      EXPECT_EQ(std::string(e.what()), path + ": the key 'runs' appears twice in one object");
    }
    std::ofstream(path) << kept;
  }
  EXPECT_EQ(f.prepared.scripts, std::vector<std::string>{script_path(f.run_dir, "default")});
  std::string script = faultline::common::read_text_file(f.prepared.scripts[0]);
  EXPECT_NE(script.find("#SBATCH --array=0-1\n"), std::string::npos);
  EXPECT_NE(script.find("'" + f.run_dir + "/results/default/task-'\"${SLURM_ARRAY_TASK_ID}\"'.json'"),
            std::string::npos);
  EXPECT_TRUE(std::filesystem::is_directory(logs_dir(f.run_dir)));  // Slurm does not create --output's folder
  // A second plan into the same directory would mix two runs' results.
  SlurmSuiteOptions again;
  again.run_dir = f.run_dir;
  again.shards = 1;
  EXPECT_THROW(prepare_slurm_run(again, {manifest("a")}, {}), faultline::Error);
}

TEST(SlurmCollect, EveryShardReportedMeansNothingLost) {
  Fixture f;
  f.task(0, {f.result("a", "buggy", "reproduced"), f.result("b", "buggy", "reproduced")});
  f.task(1, {f.result("a", "fixed", "pass"), f.result("b", "fixed", "fail")});
  auto run = collect_run(f.run_dir);
  ASSERT_EQ(run.arrays.size(), 1u);
  EXPECT_TRUE(run.arrays[0].lost_shards.empty());
  EXPECT_EQ(outcomes(run.arrays[0]), (std::vector<std::string>{"a/buggy=reproduced", "b/buggy=reproduced",
                                                               "a/fixed=pass", "b/fixed=fail"}));
  EXPECT_TRUE(lost_shards_to_resubmit(f.run_dir).empty());
}

TEST(SlurmCollect, AShardWithoutResultsIsLostRunByRunNeverPassedOrDropped) {
  Fixture f;
  f.task(0, {f.result("a", "buggy", "reproduced"), f.result("b", "buggy", "reproduced")});
  auto run = collect_run(f.run_dir);
  EXPECT_EQ(run.arrays[0].lost_shards, std::vector<int>{1});
  EXPECT_EQ(outcomes(run.arrays[0]), (std::vector<std::string>{"a/buggy=reproduced", "b/buggy=reproduced",
                                                               "a/fixed=lost", "b/fixed=lost"}));
  EXPECT_NE(run.arrays[0].results[2].result.detail.find("shard 1"), std::string::npos);

  faultline::testing::TempDir store;
  faultline::datasets::Database db(store.file("s.db"));
  auto summaries = record_collected(db, f.run_dir, run);
  ASSERT_EQ(summaries.size(), 1u);
  EXPECT_EQ(summaries[0].counts.at("host").at("lost"), 2);
  EXPECT_EQ(summaries[0].counts.at("host").count("pass"), 0u);
  EXPECT_FALSE(summaries[0].healthy());
  auto latest = faultline::datasets::latest_suite_results(db);
  ASSERT_EQ(latest.size(), 4u);
  for (const auto& r : latest) {
    EXPECT_EQ(r.outcome, r.variant == "fixed" ? "lost" : "reproduced") << r.repro_id << "/" << r.variant;
    EXPECT_EQ(r.shard, r.variant == "fixed" ? 1 : 0);
  }
  auto again = lost_shards_to_resubmit(f.run_dir);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].shards, std::vector<int>{1});
  EXPECT_EQ(array_indexes({1, 3}), "1,3");
}

// Collected before any task wrote its results (not submitted, still queued, or all died): every run would
// be recorded lost and become each reproducer's latest result. Such an array is not recorded; with none
// left, nothing is, and the lost shards can still be resubmitted.
TEST(SlurmCollect, AnArrayNoTaskOfWhichWroteResultsIsNotRecorded) {
  Fixture f;
  auto run = collect_run(f.run_dir);
  EXPECT_EQ(run.arrays[0].lost_shards, (std::vector<int>{0, 1}));
  try {
    drop_unreported_arrays(run, f.run_dir);
    ADD_FAILURE() << "kept";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find(": no task of this run has written its results"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(lost_shards_to_resubmit(f.run_dir).at(0).shards, (std::vector<int>{0, 1}));
  // One results file, even one that cannot be read, is an array that came back: recorded.
  std::ofstream(task_results_path(f.run_dir, "default", 1)) << "{";
  run = collect_run(f.run_dir);
  EXPECT_TRUE(drop_unreported_arrays(run, f.run_dir).empty());
  faultline::testing::TempDir store;
  faultline::datasets::Database db(store.file("s.db"));
  EXPECT_EQ(record_collected(db, f.run_dir, run).at(0).counts.at("host").at("lost"), 4);

  // Two arrays (two GPU generations), one of which never ran: only the other is recorded.
  faultline::testing::TempDir two;
  SlurmSuiteOptions o;
  o.run_dir = (two.path() / "run").string();
  o.mode = "host";
  o.shards = 1;
  o.max_parallel = 3;
  o.constraints = {"sm_80", "sm_90"};
  const auto prepared = prepare_slurm_run(o, {manifest("a")}, {});
  TaskResults t;
  t.run = prepared.plan.run;
  t.results = {f.result("a", "buggy", "reproduced"), f.result("a", "fixed", "pass")};
  write_task_results(task_results_path(o.run_dir, "sm_80", 0), t);
  run = collect_run(o.run_dir);
  EXPECT_EQ(drop_unreported_arrays(run, o.run_dir), std::vector<std::string>{"sm_90"});
  ASSERT_EQ(run.arrays.size(), 1u);
  EXPECT_EQ(run.arrays[0].array.name, "sm_80");
  // Resubmitting keeps the scripts' %3: the plan carries --max-parallel.
  const auto again = lost_shards_to_resubmit(o.run_dir);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].array, "sm_90");
  EXPECT_EQ(again[0].max_parallel, 3);
}

TEST(SlurmCollect, AResultsFileOfAnotherShardOrMissingARunLosesTheShard) {
  Fixture f;
  // Shard 1's file holds shard 0's header: not its results.
  f.task(0, {f.result("a", "buggy", "reproduced"), f.result("b", "buggy", "reproduced")});
  TaskResults wrong;
  wrong.run = f.prepared.plan.run;
  wrong.shard = 0;
  wrong.results = {f.result("a", "fixed", "pass"), f.result("b", "fixed", "pass")};
  write_task_results(task_results_path(f.run_dir, "default", 1), wrong);
  EXPECT_EQ(collect_run(f.run_dir).arrays[0].lost_shards, std::vector<int>{1});
  // A file of the right shard without b/fixed.
  f.task(1, {f.result("a", "fixed", "pass")});
  EXPECT_EQ(collect_run(f.run_dir).arrays[0].lost_shards, std::vector<int>{1});
  // A file of the right shard and runs whose header names its node twice: which one ran it is unknown.
  f.task(1, {f.result("a", "fixed", "pass"), f.result("b", "fixed", "pass")});
  ASSERT_TRUE(collect_run(f.run_dir).arrays[0].lost_shards.empty());
  const std::string path = task_results_path(f.run_dir, "default", 1);
  std::string text = faultline::common::read_text_file(path);
  ASSERT_EQ(text.front(), '{');
  text.insert(1, "\"node\": \"other\",");
  std::ofstream(path) << text;
  const auto twice = collect_run(f.run_dir);
  EXPECT_EQ(twice.arrays[0].lost_shards, std::vector<int>{1});
  ASSERT_EQ(twice.arrays[0].results.size(), 4u);
  EXPECT_NE(twice.arrays[0].results[2].result.detail.find("the key 'node' appears twice"), std::string::npos)
      << twice.arrays[0].results[2].result.detail;
  // A cut file is not JSON.
  std::ofstream(task_results_path(f.run_dir, "default", 1)) << "{\"format\": \"faultline-task-res";
  EXPECT_EQ(collect_run(f.run_dir).arrays[0].lost_shards, std::vector<int>{1});
}

TEST(SlurmCollect, OneArrayPerConstraintEachWithItsOwnScriptAndResults) {
  faultline::testing::TempDir dir;
  SlurmSuiteOptions o;
  o.run_dir = (dir.path() / "run").string();
  o.mode = "host";
  o.shards = 1;
  o.gres = "gpu:1";
  o.constraints = {"sm_80", "sm_90"};
  auto prepared = prepare_slurm_run(o, {manifest("a")}, {});
  ASSERT_EQ(prepared.scripts.size(), 2u);
  std::string sm90 = faultline::common::read_text_file(prepared.scripts[1]);
  EXPECT_NE(sm90.find("#SBATCH --constraint=sm_90\n"), std::string::npos);
  EXPECT_NE(sm90.find("#SBATCH --gres=gpu:1\n"), std::string::npos);
  // Nothing reported yet: both arrays lose their one shard.
  auto run = collect_run(o.run_dir);
  ASSERT_EQ(run.arrays.size(), 2u);
  EXPECT_EQ(run.arrays[0].array.name, "sm_80");
  EXPECT_EQ(run.arrays[1].lost_shards, std::vector<int>{0});
}

TEST(SlurmCollect, ClusterAutoModeAddsGpuOnlyWhenAGpuIsRequested) {
  EXPECT_EQ(cluster_modes("auto", ""), (std::vector<std::string>{"build", "host"}));
  EXPECT_EQ(cluster_modes("auto", "gpu:1"), (std::vector<std::string>{"build", "host", "gpu"}));
  EXPECT_EQ(cluster_modes("host", "gpu:1"), (std::vector<std::string>{"host"}));
}

// A task's file edited or mixed up by hand is refused, its shard lost, never counted: a buggy variant that
// "passed", more runs as expected than runs, a stability its counts do not give.
TEST(SlurmCollect, AResultNoRunWritesLosesTheShard) {
  Fixture f;
  f.task(1, {f.result("a", "fixed", "pass"), f.result("b", "fixed", "pass")});
  auto detail_of_shard_0 = [&](std::vector<RunResult> results) {
    f.task(0, std::move(results));
    const auto run = collect_run(f.run_dir);
    if (run.arrays[0].lost_shards != std::vector<int>{0}) return std::string("not lost");
    return run.arrays[0].results[0].result.detail;
  };
  auto counted_as = [](RunResult r, Stability s) {
    r.stability = s;
    return r;
  };
  const RunResult a = f.result("a", "buggy", "reproduced"), b = f.result("b", "buggy", "reproduced");
  EXPECT_EQ(detail_of_shard_0({a, b}), "not lost");
  // Each: shard 0's results with one of them changed, and what the shard's lost runs say.
  const std::vector<std::pair<std::vector<RunResult>, std::string>> refused{
      {{f.result("a", "buggy", "pass"), b},
       "result 0: outcome 'pass' for a buggy variant, which no run writes"},
      {{a, counted_as(b, {1, 5, "reproducible"})}, "result 1: 5 of 1 runs as expected, which no run writes"},
      {{a, counted_as(b, {30, 12, "reproducible"})},
       "stability 'reproducible' for 12 of 30 runs as expected"},
      {{f.result("a", "buggy", "skipped"), b}, "outcome 'skipped' after 1 runs"},
      // The outcome follows from the counts: a buggy variant not reproduced although a run went as expected.
      {{a, counted_as(f.result("b", "buggy", "not-reproduced"), {1, 1, "reproducible"})},
       "outcome 'not-reproduced' for a buggy variant with 1 of 1 runs as expected"},
      {{f.result("a", "buggy", "built"), b}, "outcome 'built' in host mode"}};
  for (const auto& [results, why] : refused)
    EXPECT_NE(detail_of_shard_0(results).find(why), std::string::npos) << why;
}

// A fixed variant passes only when every run behaved; and no run has more runs than the plan's repeat.
TEST(SlurmCollect, AFixedPassWithARunThatMisbehavedOrMoreRunsThanPlannedLosesTheShard) {
  Fixture f;
  f.task(0, {f.result("a", "buggy", "reproduced"), f.result("b", "buggy", "reproduced")});
  RunResult flaky_pass = f.result("b", "fixed", "pass");
  flaky_pass.stability = {3, 1, "flaky"};
  f.task(1, {f.result("a", "fixed", "pass"), flaky_pass});
  auto run = collect_run(f.run_dir);
  ASSERT_EQ(run.arrays[0].lost_shards, std::vector<int>{1});
  EXPECT_NE(run.arrays[0].results[2].result.detail.find(
                "outcome 'pass' for a fixed variant with 1 of 3 runs as expected"),
            std::string::npos)
      << run.arrays[0].results[2].result.detail;
  RunResult thrice = f.result("b", "fixed", "pass");
  thrice.stability = {3, 3, "reproducible"};  // consistent, but the plan ran each once
  f.task(1, {f.result("a", "fixed", "pass"), thrice});
  run = collect_run(f.run_dir);
  ASSERT_EQ(run.arrays[0].lost_shards, std::vector<int>{1});
  EXPECT_NE(run.arrays[0].results[2].result.detail.find("b [host/fixed] has 3 runs, more than the 1 planned"),
            std::string::npos)
      << run.arrays[0].results[2].result.detail;
}

// An array's name is made from its constraint when planned: one edited in plan.json would read results
// from elsewhere ("..") or the same results twice.
TEST(SlurmCollect, APlanWhoseArrayNameIsNotItsConstraintsIsRefused) {
  Fixture f;
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"\"name\": \"default\"", "\"name\": \"..\""}}) {
    std::string plan = faultline::common::read_text_file(plan_path(f.run_dir));
    ASSERT_NE(plan.find(from), std::string::npos) << plan;
    plan.replace(plan.find(from), from.size(), to);
    std::ofstream(plan_path(f.run_dir)) << plan;
  }
  try {
    collect_run(f.run_dir);
    ADD_FAILURE() << "collected";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("array '..' is not the name of its constraint '' ('default')"),
              std::string::npos)
        << e.what();
  }
}

// plan.json is written last: shard files without it are what an interrupted planning left, and planning
// again there would leave a shard file past the new count.
// A complete run directory planned again says how to submit its scripts instead (a failed sbatch, say).
TEST(SlurmCollect, PlanningWhereAnInterruptedPlanningLeftShardFilesIsRefused) {
  Fixture f;
  SlurmSuiteOptions o;
  o.run_dir = f.run_dir;
  o.mode = "host";
  o.shards = 1;
  for (const bool complete : {true, false}) {
    if (!complete) std::filesystem::remove(plan_path(f.run_dir));
    try {
      prepare_slurm_run(o, {manifest("a"), manifest("b")}, {});
      ADD_FAILURE() << "planned";
    } catch (const faultline::Error& e) {
      EXPECT_NE(std::string(e.what()).find("already holds a planned run"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find("sbatch " + f.run_dir + "/array-*.sbatch") != std::string::npos,
                complete)
          << e.what();
    }
  }
}

// Every GPU run of a task ran on its node's GPU.
TEST(SlurmCollect, AGpuResultOnAnotherGpuThanItsTasksIsRefused) {
  faultline::testing::TempDir dir;
  RunResult r;
  r.id = "a";
  r.mode = "gpu";
  r.variant = "buggy";
  r.outcome = "reproduced";
  r.stability = {1, 1, "reproducible"};
  r.device = "NVIDIA H100";
  r.compute_capability = "9.0";
  TaskResults task;
  task.device = "NVIDIA H200";
  task.compute_capability = "9.0";
  task.results = {r};
  write_task_results(dir.file("task-0.json"), task);
  try {
    read_task_results(dir.file("task-0.json"));
    ADD_FAILURE() << "read";
  } catch (const faultline::Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("result 0 ran on 'NVIDIA H100', but the task's GPU is 'NVIDIA H200'"),
        std::string::npos)
        << e.what();
  }
  task.results[0].device = "NVIDIA H200";
  write_task_results(dir.file("task-0.json"), task);
  EXPECT_EQ(read_task_results(dir.file("task-0.json")).results.size(), 1u);
}

// A GPU result must name the GPU it ran on; one that names none did not run on one.
TEST(RunResultJson, AGpuResultOnNoGpuIsRefusedAndOneOnAGpuReadsBack) {
  RunResult r;
  r.id = "a";
  r.mode = "gpu";
  r.variant = "buggy";
  r.outcome = "reproduced";
  r.stability = {1, 1, "reproducible"};
  try {
    run_result_from_json(run_result_json(r), "task-0.json: result 0");
    ADD_FAILURE() << "read";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "task-0.json: result 0: a GPU result on no GPU (device 'none', compute capability 'none'), which "
        "no run writes");
  }
  r.device = "";
  r.compute_capability = "9.0";
  EXPECT_THROW(run_result_from_json(run_result_json(r), "x"), faultline::Error);  // a name that is empty
  r.device = "NVIDIA H200";
  EXPECT_EQ(run_result_from_json(run_result_json(r), "x").device, "NVIDIA H200");
  r.outcome = "skipped";  // a skip names no GPU, having run on none
  r.stability = {0, 0, ""};
  r.device = r.compute_capability = "none";
  EXPECT_EQ(run_result_from_json(run_result_json(r), "x").outcome, "skipped");
  // A harness's own skip reads back as one, so that collect sees the problem a local suite sees (it was
  // dropped: a GPU harness refusing a device the runner judged able passed as a plain skip).
  r.skipped_by_harness = true;
  EXPECT_TRUE(run_result_from_json(run_result_json(r), "x").skipped_by_harness);
  EXPECT_EQ(run_problems("gpu", {run_result_from_json(run_result_json(r), "x")}).size(), 2u);
  r.outcome = "reproduced";
  r.stability = {1, 1, "reproducible"};
  r.device = "NVIDIA H200";
  r.compute_capability = "9.0";
  EXPECT_THROW(run_result_from_json(run_result_json(r), "x"), faultline::Error);  // a skip that ran
}

// A run that asked for GPU runs, one of whose shards landed where no GPU was visible: its skips checked
// nothing, and collect says which shard and node (it exited 0 while another shard's GPU runs ran). A skip
// for another reason, or a run that asked for no GPU, says nothing.
TEST(SlurmCollect, AShardThatSawNoGpuInARunThatAskedForOneIsSaid) {
  auto gpu_result = [](const std::string& outcome, const std::string& detail, const std::string& node) {
    RunResult r;
    r.id = "a";
    r.mode = "gpu";
    r.variant = "fixed";
    r.outcome = outcome;
    r.detail = detail;
    r.node = node;
    return r;
  };
  CollectedRun run;
  run.plan.modes = {"build", "host", "gpu"};
  CollectedArray array;
  array.results = {{gpu_result("pass", "ok", "node1"), 0},
                   {gpu_result("skipped", kNoGpuHere, "node2"), 1},
                   {gpu_result("skipped", kNoGpuHere, "node2"), 1},
                   {gpu_result("skipped", "compute capability 8.0 < required 9.0", "node3"), 2}};
  EXPECT_EQ(shards_without_a_gpu(run, array),
            std::vector<std::string>{
                "shard 1 (node node2) saw no GPU, though the run asked for one: 2 GPU runs skipped"});
  run.plan.modes = {"build", "host"};
  EXPECT_TRUE(shards_without_a_gpu(run, array).empty());
}

// A run directory changed by hand since it was planned: a shard file copied over another (its runs would
// count twice, the other's not at all), or the plan's shard count lowered (the last shard's runs dropped).
TEST(SlurmCollect, ARunDirectoryChangedSinceItWasPlannedIsRefused) {
  Fixture f;
  const std::string shard0 = faultline::common::read_text_file(shard_path(f.run_dir, 0));
  const std::string shard1 = faultline::common::read_text_file(shard_path(f.run_dir, 1));
  std::string copy = shard0;
  copy.replace(copy.find("\"shard\": 0"), 10, "\"shard\": 1");
  std::ofstream(shard_path(f.run_dir, 1)) << copy;
  try {
    collect_run(f.run_dir);
    ADD_FAILURE() << "collected";
  } catch (const faultline::Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("shard-1.json: has no a [host/fixed], which plan.json planned in this "
                                   "shard; the run directory was changed since it was planned"),
        std::string::npos)
        << e.what();
  }
  std::ofstream(shard_path(f.run_dir, 1)) << shard1;
  EXPECT_NO_THROW(collect_run(f.run_dir));
  // A shard file edited to run each variant 5 times where the plan says once: results with 5 runs would pass
  // its own check.
  auto more = nlohmann::json::parse(shard1);
  ASSERT_EQ(more["repeat"], 1);
  more["repeat"] = 5;
  std::ofstream(shard_path(f.run_dir, 1)) << more.dump();
  try {
    collect_run(f.run_dir);
    ADD_FAILURE() << "collected";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("shard-1.json: runs each variant 5 times, plan.json 1; the run "
                                         "directory was changed since it was planned"),
              std::string::npos)
        << e.what();
  }
  std::ofstream(shard_path(f.run_dir, 1)) << shard1;
  // A run taken out of both its shard file and its task's results: the shard alone looks whole.
  f.task(1, {f.result("a", "fixed", "pass")});
  auto cut = nlohmann::json::parse(shard1);
  ASSERT_EQ(cut["runs"][1]["id"], "b");
  cut["runs"].erase(1);
  std::ofstream(shard_path(f.run_dir, 1)) << cut.dump();
  try {
    collect_run(f.run_dir);
    ADD_FAILURE() << "collected: " << cut.dump();
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("shard-1.json: has no b [host/fixed], which plan.json planned"),
              std::string::npos)
        << e.what();
  }
  std::ofstream(shard_path(f.run_dir, 1)) << shard1;
  // The plan cut to its first shard alone (its count and its list of runs by shard): shard-1.json remains.
  const std::string whole_plan = faultline::common::read_text_file(plan_path(f.run_dir));
  auto plan = nlohmann::json::parse(whole_plan);
  plan["shards"] = 1;
  plan["shard_runs"].erase(1);
  std::ofstream(plan_path(f.run_dir)) << plan.dump();
  try {
    collect_run(f.run_dir);
    ADD_FAILURE() << "collected";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("plans 1 shards, but " + shard_path(f.run_dir, 1) + " is there too"),
              std::string::npos)
        << e.what();
  }
  // A plan whose own lists disagree: a count of shards other than its lists', a run in two shards.
  plan = nlohmann::json::parse(whole_plan);
  plan["shards"] = 1;
  std::ofstream(plan_path(f.run_dir)) << plan.dump();
  EXPECT_THROW(
      {
        try {
          read_run_plan(f.run_dir);
        } catch (const faultline::Error& e) {
          EXPECT_NE(std::string(e.what()).find("field 'shard_runs' must be a list of 1 lists of runs"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      faultline::Error);
  plan = nlohmann::json::parse(whole_plan);
  plan["shard_runs"][1].push_back(plan["shard_runs"][0][0]);
  std::ofstream(plan_path(f.run_dir)) << plan.dump();
  try {
    read_run_plan(f.run_dir);
    ADD_FAILURE() << "read";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find(": a [host/buggy] is planned in two shards"), std::string::npos)
        << e.what();
  }
  std::ofstream(plan_path(f.run_dir)) << whole_plan;
  EXPECT_EQ(read_run_plan(f.run_dir).shard_runs,
            (std::vector<std::vector<std::string>>{{"a [host/buggy]", "b [host/buggy]"},
                                                   {"a [host/fixed]", "b [host/fixed]"}}));
}

// An array's results folder stays inside results/ whatever the constraint ("..", a hidden name), and a path
// of the user's holding "{task}" is refused: the job scripts would put the task's number there too.
TEST(SlurmCollect, ArrayNamesStayInsideResultsAndTaskPlaceholdersInPathsAreRefused) {
  EXPECT_EQ(array_name(".."), "_.");
  EXPECT_EQ(array_name(".hidden"), "_hidden");
  EXPECT_EQ(array_name("sm_90&sm_80"), "sm_90_sm_80");
  EXPECT_EQ(array_name("a.b"), "a.b");
  faultline::testing::TempDir dir;
  SlurmSuiteOptions o;
  o.mode = "host";
  o.shards = 1;
  o.faultline = "/opt/faultline";
  o.build_dir = "/opt/build";
  o.manifest_dir = "/opt/reproducers";
  o.run_dir = (dir.path() / "run-{task}").string();
  try {
    prepare_slurm_run(o, {manifest("a")}, {});
    ADD_FAILURE() << "prepared";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "--run-dir '" + o.run_dir + "' holds '{task}', which the job scripts replace");
  }
  EXPECT_FALSE(std::filesystem::exists(o.run_dir));
}

// Each run's token, drawn when it is planned, is in its shard files and its tasks' results: a results file
// copied from another run (the same shards and repeat) loses its shard, and planning twice draws two tokens.
TEST(SlurmCollect, AResultsFileOfAnotherRunLosesTheShard) {
  Fixture f, other;
  ASSERT_EQ(f.prepared.plan.run.size(), 16u);
  EXPECT_NE(f.prepared.plan.run, other.prepared.plan.run);
  EXPECT_EQ(read_shard_file(shard_path(f.run_dir, 1)).run, f.prepared.plan.run);
  f.task(0, {f.result("a", "buggy", "reproduced"), f.result("b", "buggy", "reproduced")});
  other.task(1, {other.result("a", "fixed", "pass"), other.result("b", "fixed", "pass")});
  std::filesystem::copy_file(task_results_path(other.run_dir, "default", 1),
                             task_results_path(f.run_dir, "default", 1));
  const auto run = collect_run(f.run_dir);
  ASSERT_EQ(run.arrays[0].lost_shards, std::vector<int>{1});
  EXPECT_NE(run.arrays[0].results[2].result.detail.find(" is the results of another run (" +
                                                        other.prepared.plan.run + ", not " +
                                                        f.prepared.plan.run + ")"),
            std::string::npos)
      << run.arrays[0].results[2].result.detail;
  f.task(1, {f.result("a", "fixed", "pass"), f.result("b", "fixed", "pass")});
  EXPECT_TRUE(collect_run(f.run_dir).arrays[0].lost_shards.empty());
}
