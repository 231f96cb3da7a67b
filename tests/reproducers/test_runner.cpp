#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "reproducers/manifest.hpp"
#include "reproducers/process.hpp"
#include "reproducers/runner.hpp"
#include "reproducers/suite.hpp"
#include "common/error.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::reproducers;

namespace {

const char* kManifest = R"({
  "id": "demo", "title": "t", "symptom": "crash", "root_cause": "api_misuse", "issues": [],
  "mechanism": "m", "requirements": {"min_compute_capability": "8.0"}, "timeout_s": 2,
  "modes": {"host": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}},
            "gpu": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}}}
})";

// A stand-in harness: a shell script with the given body, at the path the runner looks for.
void harness(const faultline::testing::TempDir& dir, const std::string& variant, const std::string& kind,
             const std::string& body) {
  std::filesystem::create_directories(dir.path() / "kernels" / "demo");
  std::string path = (dir.path() / "kernels" / "demo" / ("repro_demo_" + variant + "_" + kind)).string();
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  chmod(path.c_str(), 0755);
}

Environment env_for(const faultline::testing::TempDir& dir, std::optional<Gpu> gpu = std::nullopt) {
  Environment env;
  env.build_dir = dir.path().string();
  env.have_cuda = true;
  env.gpu = gpu;
  return env;
}

}  // namespace

TEST(Process, CapturesOutputAndExitCode) {
  auto r = run_process({"sh", "-c", "echo out; echo err >&2; exit 7"}, 10);
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.output.find("out"), std::string::npos);
  EXPECT_NE(r.output.find("err"), std::string::npos);
}

TEST(Process, KillsAProcessThatOutlivesItsTimeout) {
  auto r = run_process({"sh", "-c", "sleep 30"}, 1);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.seconds, 10.0);
}

TEST(Runner, ExitCodesMapToOutcomesPerVariant) {
  faultline::testing::TempDir dir;
  Manifest m = parse_manifest(kManifest, "demo.json");
  harness(dir, "buggy", "host", "echo '{\"symptom\": true, \"detail\": \"NaN row\"}'; exit 10");
  harness(dir, "fixed", "host", "echo '{\"symptom\": false, \"detail\": \"ok\"}'; exit 0");
  auto env = env_for(dir);
  auto buggy = run_variant(m, "host", "buggy", env);
  EXPECT_EQ(buggy.outcome, "reproduced");
  EXPECT_EQ(buggy.detail, "NaN row");
  EXPECT_EQ(run_variant(m, "host", "fixed", env).outcome, "pass");

  // The oracle going blind: the buggy variant behaves correctly, the fixed one shows the symptom.
  harness(dir, "buggy", "host", "exit 0");
  harness(dir, "fixed", "host", "exit 10");
  EXPECT_EQ(run_variant(m, "host", "buggy", env).outcome, "not-reproduced");
  EXPECT_EQ(run_variant(m, "host", "fixed", env).outcome, "fail");

  harness(dir, "fixed", "host", "echo '{\"skipped\": true, \"detail\": \"needs sm_90\"}'; exit 77");
  auto skipped = run_variant(m, "host", "fixed", env);
  EXPECT_EQ(skipped.outcome, "skipped");
  EXPECT_EQ(skipped.detail, "needs sm_90");

  harness(dir, "fixed", "host", "sleep 30");
  auto hung = run_variant(m, "host", "fixed", env);
  EXPECT_EQ(hung.outcome, "fail");
  EXPECT_NE(hung.detail.find("killed after 2 s"), std::string::npos);

  harness(dir, "fixed", "host", "exit 3");
  EXPECT_EQ(run_variant(m, "host", "fixed", env).outcome, "fail");
}

TEST(Runner, GpuModeIsSkippedWithAReasonNeverPassed) {
  faultline::testing::TempDir dir;
  Manifest m = parse_manifest(kManifest, "demo.json");
  harness(dir, "fixed", "gpu", "exit 0");
  auto none = run_variant(m, "gpu", "fixed", env_for(dir));
  EXPECT_EQ(none.outcome, "skipped");
  EXPECT_EQ(none.detail, "no GPU on this machine");
  auto old = run_variant(m, "gpu", "fixed", env_for(dir, Gpu{"V100", "550", 7.0}));
  EXPECT_EQ(old.outcome, "skipped");
  EXPECT_EQ(old.detail, "compute capability 7.0 < required 8.0");
  EXPECT_EQ(run_variant(m, "gpu", "fixed", env_for(dir, Gpu{"H200", "570", 9.0})).outcome, "pass");
  // A reproducer that needs a device without a feature (max 9.9) is skipped on one that has it.
  m.max_compute_capability = 9.9;
  EXPECT_EQ(gpu_skip_reason(m, env_for(dir, Gpu{"B200", "580", 10.0})),
            std::optional<std::string>("compute capability 10.0 has the feature (max 9.9)"));
  EXPECT_EQ(gpu_skip_reason(m, env_for(dir, Gpu{"H200", "580", 9.0})), std::nullopt);
  EXPECT_EQ(resolve_modes("auto", env_for(dir)), (std::vector<std::string>{"build", "host"}));
  EXPECT_FALSE(is_failure("skipped"));
}

TEST(Runner, BuildModeIsSkippedWithoutABuildTree) {
  // Prebuilt harnesses (a GPU bundle) have no CMakeCache.txt: nothing can be rebuilt there.
  faultline::testing::TempDir dir;
  Manifest m = parse_manifest(R"({
    "id": "demo", "title": "t", "symptom": "crash", "root_cause": "api_misuse", "issues": [],
    "mechanism": "m", "requirements": {"min_compute_capability": "8.0"}, "timeout_s": 2,
    "modes": {"build": {"buggy": {"expect": "builds"}, "fixed": {"expect": "builds"}}}})",
                              "demo.json");
  auto r = run_variant(m, "build", "fixed", env_for(dir));
  EXPECT_EQ(r.outcome, "skipped");
  EXPECT_NE(r.detail.find("no CMake build tree"), std::string::npos) << r.detail;
}

TEST(Environment, ReadsTheGpuFromNvidiaSmi) {
  // A stand-in nvidia-smi printing what driver 580 prints for an H200, first on PATH.
  faultline::testing::TempDir dir;
  std::string smi = (dir.path() / "nvidia-smi").string();
  std::ofstream(smi)
      << "#!/bin/sh\n"
         "if [ \"$1\" = --query-gpu=name,driver_version,compute_cap ]; then\n"
         "  echo 'NVIDIA H200, 580.159.03, 9.0'\n"
         "else\n"
         "  echo '| NVIDIA-SMI 580.159.03   Driver Version: 580.159.03   CUDA Version: 13.0 |'\n"
         "fi\n";
  chmod(smi.c_str(), 0755);
  std::string path = std::getenv("PATH");
  setenv("PATH", (dir.path().string() + ":" + path).c_str(), 1);
  Environment env = detect_environment();
  setenv("PATH", path.c_str(), 1);
  ASSERT_TRUE(env.gpu.has_value());
  EXPECT_EQ(env.gpu->name, "NVIDIA H200");
  EXPECT_EQ(env.gpu->driver, "580.159.03");
  EXPECT_DOUBLE_EQ(env.gpu->compute_capability, 9.0);
  EXPECT_EQ(env.cuda_driver_version, "13.0");
}

TEST(Environment, AMissingBuildDirectoryIsNamed) {
  Environment env;
  env.build_dir = "/nonexistent/faultline-build";
  try {
    require_build_dir(env);
    FAIL() << "no error";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "/nonexistent/faultline-build: no such build directory (build the project, or pass --build-dir)");
  }
  faultline::testing::TempDir dir;
  require_build_dir(env_for(dir));
}

TEST(Manifest, ValidationNamesTheProblem) {
  auto error = [](const std::string& text, const std::string& path = "demo.json") {
    try {
      parse_manifest(text, path);
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(kManifest, "other.json"), "other.json: id 'demo' differs from the file name");
  std::string bad_symptom = kManifest;
  bad_symptom.replace(bad_symptom.find("\"crash\""), 7, "\"boom\"");
  EXPECT_EQ(error(bad_symptom), "demo.json: unknown symptom 'boom'");
  std::string bad_expect = kManifest;
  bad_expect.replace(bad_expect.find("\"correct\""), 9, "\"fine\"");
  EXPECT_EQ(error(bad_expect), "demo.json: host/fixed has an invalid expectation 'fine'");
}

TEST(Suite, JunitMarksFailuresAndSkips) {
  std::vector<RunResult> results{{"a", "host", "buggy", "reproduced", "NaN", 0.5},
                                 {"a", "host", "fixed", "fail", "x<y & z", 0.25},
                                 {"a", "gpu", "fixed", "skipped", "no GPU on this machine", 0}};
  std::string xml = junit_xml(results);
  EXPECT_NE(xml.find("tests=\"3\" failures=\"1\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"fail\">x&lt;y &amp; z</failure>"), std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"no GPU on this machine\"/>"), std::string::npos);
}

TEST(Corpus, EveryShippedManifestLoadsAndEverySymptomIsCovered) {
  auto manifests = load_manifests(std::string(FAULTLINE_SOURCE_DIR) + "/reproducers");
  EXPECT_GE(manifests.size(), 18u);
  std::set<std::string> symptoms, causes;
  for (const auto& m : manifests) {
    symptoms.insert(m.symptom);
    causes.insert(m.root_cause);
    EXPECT_TRUE(std::filesystem::exists(std::string(FAULTLINE_SOURCE_DIR) + "/kernels/" + m.id)) << m.id;
  }
  EXPECT_EQ(symptoms.size(), 6u);
  EXPECT_EQ(causes.size(), 15u);
}
