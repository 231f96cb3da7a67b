#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "datasets/store/suite_store.hpp"
#include "kernels/common/verdict.hpp"
#include "reproducers/harness_output.hpp"
#include "reproducers/manifest.hpp"
#include "reproducers/process.hpp"
#include "reproducers/runner.hpp"
#include "reproducers/suite.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::reproducers;

namespace {

const char* kManifest = R"({
  "id": "demo", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
  "issues": ["https://github.com/o/r/issues/1"],
  "mechanism": "m", "requirements": {"min_compute_capability": "8.0"}, "timeout_s": 2,
  "modes": {"host": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}},
            "gpu": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}}}
})";

// What a harness that saw the symptom, or saw none, prints and returns (kernels/common/verdict.hpp): the
// runner reads both.
const std::string kSaysSymptom = "echo '{\"symptom\": true, \"detail\": \"seen\"}'; exit 10";
const std::string kSaysCorrect = "echo '{\"symptom\": false, \"detail\": \"not seen\"}'; exit 0";

// A stand-in harness: a shell script with the given body, at the path the runner looks for.
void harness(const faultline::testing::TempDir& dir, const std::string& variant, const std::string& kind,
             const std::string& body, const std::string& id = "demo") {
  std::filesystem::create_directories(dir.path() / "kernels" / id);
  std::string path = (dir.path() / "kernels" / id / ("repro_" + id + "_" + variant + "_" + kind)).string();
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  chmod(path.c_str(), 0755);
}

RunResult result_of(const std::string& id, const std::string& mode, const std::string& variant,
                    const std::string& outcome, const std::string& detail, double seconds) {
  RunResult r;
  r.id = id;
  r.mode = mode;
  r.variant = variant;
  r.outcome = outcome;
  r.detail = detail;
  r.seconds = seconds;
  return r;
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

// faultline ignores SIGXFSZ for itself (a write past a file-size limit then fails with a message); a child
// gets the default back, as any program started from a shell has it. /proc's SigIgn is the mask of ignored
// signals in hex, bit (signal - 1).
TEST(Process, AChildDoesNotInheritFaultlinesIgnoredFileSizeSignal) {
  auto ignored_in_child = [] {
    auto r = run_process({"sh", "-c", "grep SigIgn /proc/self/status"}, 10);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const auto mask = std::stoull(r.output.substr(r.output.find(':') + 1), nullptr, 16);
    return (mask >> (SIGXFSZ - 1)) & 1;
  };
  auto before = signal(SIGXFSZ, SIG_IGN);
  EXPECT_EQ(ignored_in_child(), 0u);
  signal(SIGXFSZ, before);
}

TEST(Process, KillsAProcessThatOutlivesItsTimeout) {
  auto r = run_process({"sh", "-c", "sleep 30"}, 1);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.seconds, 10.0);
}

// The exit status alone is not the verdict: a fixed harness that returns 0 whatever its check printed (here
// the symptom), or prints no verdict line, or a broken one, is a harness error, and so is a buggy harness
// whose exit 10 its line contradicts. With a line that agrees, the same exits pass and reproduce.
TEST(Runner, AnExitStatusItsVerdictLineDoesNotBackIsAHarnessError) {
  faultline::testing::TempDir dir;
  Manifest m = parse_manifest(kManifest, "demo.json");
  auto env = env_for(dir);
  for (const auto& [body, detail] : std::vector<std::pair<std::string, std::string>>{
           {"echo '{\"symptom\": true, \"detail\": \"NaN row\"}'; exit 0",
            "harness error (exit 0, but its verdict line says symptom: true): NaN row"},
           {"exit 0", "harness error (exit 0, without a verdict line): "},
           {"echo '{\"symptom\": tru'; exit 0",
            "harness error (exit 0, without a verdict line): {\"symptom\": tru\n"},
           {"echo '{\"symptom\": \"no\", \"detail\": \"d\"}'; exit 0",
            "harness error (exit 0, without a verdict line): d"}}) {
    harness(dir, "fixed", "host", body);
    const auto r = run_variant(m, "host", "fixed", env);
    EXPECT_EQ(r.outcome, "fail") << body;
    EXPECT_EQ(r.detail, detail) << body;
  }
  harness(dir, "buggy", "host", "echo '{\"symptom\": false, \"detail\": \"ok\"}'; exit 10");
  EXPECT_EQ(run_variant(m, "host", "buggy", env).outcome, "not-reproduced");
  harness(dir, "fixed", "host", kSaysCorrect);
  harness(dir, "buggy", "host", kSaysSymptom);
  EXPECT_EQ(run_variant(m, "host", "fixed", env).outcome, "pass");
  EXPECT_EQ(run_variant(m, "host", "buggy", env).outcome, "reproduced");
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
  harness(dir, "buggy", "host", kSaysCorrect);
  harness(dir, "fixed", "host", kSaysSymptom);
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
  harness(dir, "fixed", "gpu", kSaysCorrect);
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
  EXPECT_TRUE(is_failure("not-reproduced"));
}

TEST(Runner, BuildModeIsSkippedWithoutABuildTree) {
  // Prebuilt harnesses (a GPU bundle) have no CMakeCache.txt: nothing can be rebuilt there.
  faultline::testing::TempDir dir;
  Manifest m = parse_manifest(R"({
    "id": "demo", "title": "t", "symptom": "crash", "root_cause": "api_misuse", "issues": ["https://github.com/o/r/issues/1"],
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
  // A field twice: the second would silently win.
  std::string twice = kManifest;
  twice.insert(twice.find('{') + 1, "\"symptom\": \"hang\",");
  EXPECT_EQ(error(twice), "demo.json: the key 'symptom' appears twice in one object");
  // A required field left out is named as such (it was the JSON library's "key 'title' not found").
  nlohmann::json without_title = nlohmann::json::parse(kManifest);
  without_title.erase("title");
  EXPECT_EQ(error(without_title.dump()), "demo.json: the field \"title\" is missing");
  EXPECT_EQ(error(nlohmann::json::parse(kManifest).dump()), "");  // the same manifest with its title
  // Within a mode too, and a field of another type, without the JSON library's tags.
  nlohmann::json without_expect = nlohmann::json::parse(kManifest);
  without_expect["modes"]["host"]["buggy"].erase("expect");
  EXPECT_EQ(error(without_expect.dump()), "demo.json: a required field is missing: key 'expect' not found");
  nlohmann::json number_title = nlohmann::json::parse(kManifest);
  number_title["title"] = 5;
  EXPECT_EQ(error(number_title.dump()),
            "demo.json: a field is not as expected: type must be string, but is number");
}

TEST(Suite, JunitMarksFailuresAndSkips) {
  std::vector<RunResult> results{result_of("a", "host", "buggy", "reproduced", "NaN", 0.5),
                                 result_of("a", "host", "fixed", "fail", "x<y & z", 0.25),
                                 result_of("a", "gpu", "fixed", "skipped", "no GPU on this machine", 0)};
  std::string xml = junit_xml({junit_suite(results)});
  EXPECT_NE(xml.find("tests=\"3\" failures=\"1\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"fail\">x&lt;y &amp; z</failure>"), std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"no GPU on this machine\"/>"), std::string::npos);
}

// A collected Slurm run with one array per GPU architecture: the same test cases in two suites, each with
// its own counts, so that a dashboard does not see one test twice.
TEST(Suite, JunitKeepsEachArrayInASuiteOfItsOwn) {
  const std::vector<RunResult> sm80{result_of("a", "gpu", "fixed", "pass", "", 0.5)};
  const std::vector<RunResult> sm90{result_of("a", "gpu", "fixed", "fail", "wrong", 0.25)};
  const std::string xml = junit_xml({junit_suite(sm80, "sm_80"), junit_suite(sm90, "sm_90")});
  const size_t first = xml.find("<testsuite name=\"faultline-reproducers.sm_80\" tests=\"1\" failures=\"0\"");
  const size_t second =
      xml.find("<testsuite name=\"faultline-reproducers.sm_90\" tests=\"1\" failures=\"1\"");
  ASSERT_NE(first, std::string::npos) << xml;
  ASSERT_NE(second, std::string::npos) << xml;
  EXPECT_LT(xml.find("</testsuite>", first), second);
  EXPECT_EQ(xml.rfind("</testsuite></testsuites>\n"), xml.size() - 26);
}

namespace {

// A manifest with `modes` as given, the rest fixed.
Manifest manifest_with(const std::string& modes, const std::string& id = "demo", int timeout_s = 2) {
  return parse_manifest(R"({"id": ")" + id +
                            R"(", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
    "issues": ["https://github.com/o/r/issues/1"], "mechanism": "m",
    "requirements": {"min_compute_capability": "8.0"}, "timeout_s": )" +
                            std::to_string(timeout_s) + R"(, "modes": )" + modes + "}",
                        id + ".json");
}

std::string manifest_error(const std::string& text) {
  try {
    parse_manifest(text, "/repo/reproducers/demo.json");
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "";
}

// A real CMake build tree (no compiler needed) whose targets stand in for the harness builds: two that
// build, one failing with the checked message, one failing with another, one writing a PTX file.
void configure_stub_project(const faultline::testing::TempDir& dir) {
  std::filesystem::create_directories(dir.file("src"));
  dir.write("src/fails_with_message.sh",
            "echo 'x.cu(3): error: static assertion failed: same FP8 type'; exit 1\n");
  dir.write("src/fails_otherwise.sh", "echo 'x.cu(3): error: out of memory'; exit 1\n");
  dir.write("src/buggy_ptx.sh", "echo 'fma.rn.f32 %f3, %f1, %f2, %f0;' > buggy.ptx\n");
  dir.write("src/fixed_ptx.sh", "echo 'mul.rn.f32 %f3, %f1, %f2;' > fixed.ptx\n");
  dir.write("src/CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.16)
project(stub NONE)
add_custom_target(repro_demo_buggy_host COMMAND ${CMAKE_COMMAND} -E true)
add_custom_target(repro_demo_fixed_host COMMAND ${CMAKE_COMMAND} -E true)
add_custom_target(repro_fails_with_message COMMAND sh ${CMAKE_SOURCE_DIR}/fails_with_message.sh)
add_custom_target(repro_fails_otherwise COMMAND sh ${CMAKE_SOURCE_DIR}/fails_otherwise.sh)
add_custom_target(repro_demo_buggy_ptx COMMAND sh ${CMAKE_SOURCE_DIR}/buggy_ptx.sh)
add_custom_target(repro_demo_fixed_ptx COMMAND sh ${CMAKE_SOURCE_DIR}/fixed_ptx.sh)
)");
  auto p = run_process({"cmake", "-S", dir.file("src"), "-B", dir.path().string(), "-G", "Ninja"}, 120);
  ASSERT_EQ(p.exit_code, 0) << p.output;
}

}  // namespace

TEST(Runner, ModeledMatchesAreModeledNeverReproducedOrPass) {
  faultline::testing::TempDir dir;
  Manifest m = manifest_with(R"({"host": {
      "buggy": {"expect": "symptom", "modeled": "the host cannot race"},
      "fixed": {"expect": "correct", "modeled": "the host cannot race"}}})");
  harness(dir, "buggy", "host", kSaysSymptom);
  harness(dir, "fixed", "host", kSaysCorrect);
  auto env = env_for(dir);
  EXPECT_EQ(run_variant(m, "host", "buggy", env).outcome, "modeled");
  EXPECT_EQ(run_variant(m, "host", "fixed", env).outcome, "modeled");
  // The trigger removed: a modeled check that does not match is an ordinary failure.
  harness(dir, "buggy", "host", kSaysCorrect);
  harness(dir, "fixed", "host", kSaysSymptom);
  EXPECT_EQ(run_variant(m, "host", "buggy", env).outcome, "not-reproduced");
  EXPECT_EQ(run_variant(m, "host", "fixed", env).outcome, "fail");
}

TEST(Runner, BuildModeCompilesAreBuiltAndOnlyCheckedMessagesReproduce) {
  faultline::testing::TempDir dir;
  configure_stub_project(dir);
  auto env = env_for(dir);
  Manifest m = manifest_with(R"({"build": {
      "buggy": {"expect": "fails", "target": "repro_fails_with_message", "message": "static assertion failed"},
      "fixed": {"expect": "builds"}}, "host": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}}})");
  auto buggy = run_variant(m, "build", "buggy", env);
  EXPECT_EQ(buggy.outcome, "reproduced") << buggy.detail;
  EXPECT_EQ(buggy.detail,
            "fails to build as expected: x.cu(3): error: static assertion failed: same FP8 type");
  auto fixed = run_variant(m, "build", "fixed", env);
  EXPECT_EQ(fixed.outcome, "built") << fixed.detail;  // compiled; behaviour not checked: never pass
  // A failure with another message, or no failure, is no reproduction.
  Manifest other = manifest_with(R"({"build": {
      "buggy": {"expect": "fails", "target": "repro_fails_otherwise", "message": "static assertion failed"}}})");
  EXPECT_EQ(run_variant(other, "build", "buggy", env).outcome, "not-reproduced");
  Manifest builds = manifest_with(R"({"build": {
      "buggy": {"expect": "fails", "target": "repro_demo_fixed_host", "message": "static assertion failed"}}})");
  EXPECT_EQ(run_variant(builds, "build", "buggy", env).outcome, "not-reproduced");
}

TEST(Runner, AnInspectedArtifactCanComeOutEitherWay) {
  faultline::testing::TempDir dir;
  configure_stub_project(dir);
  auto env = env_for(dir);
  Manifest m = manifest_with(R"({"build": {
      "buggy": {"expect": "builds", "artifact": "buggy.ptx", "artifact_matches": "fma\\.rn\\.f32"},
      "fixed": {"expect": "builds", "artifact": "fixed.ptx", "artifact_lacks": "fma\\.rn\\.f32"}}})");
  EXPECT_EQ(run_variant(m, "build", "buggy", env).outcome, "reproduced");
  EXPECT_EQ(run_variant(m, "build", "fixed", env).outcome, "pass");
  // The patterns swapped: the buggy PTX lacks what it must have, the fixed one has what it must not.
  Manifest swapped = manifest_with(R"({"build": {
      "buggy": {"expect": "builds", "artifact": "fixed.ptx", "artifact_matches": "fma\\.rn\\.f32"},
      "fixed": {"expect": "builds", "artifact": "buggy.ptx", "artifact_lacks": "fma\\.rn\\.f32"}}})");
  EXPECT_EQ(run_variant(swapped, "build", "buggy", env).outcome, "not-reproduced");
  EXPECT_EQ(run_variant(swapped, "build", "fixed", env).outcome, "fail");
}

TEST(Manifest, PatternsTimeoutsSourcesAndModeledNotesAreValidatedAtLoad) {
  const std::string head = R"({"id": "demo", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
    "mechanism": "m", "requirements": {"min_compute_capability": "8.0"}, )";
  const std::string issues = R"("issues": ["https://github.com/o/r/issues/1"], )";
  EXPECT_EQ(
      manifest_error(head + issues + R"("modes": {"build": {"buggy": {"expect": "fails", "target": "repro_t",
      "message": "unclosed (group"}}}})"),
      "/repo/reproducers/demo.json: build/buggy: message /unclosed (group/ is not a valid pattern: "
      "missing ): unclosed (group");
  EXPECT_EQ(manifest_error(head + issues +
                           R"("timeout_s": 0, "modes": {"host": {"buggy": {"expect": "symptom"}}}})"),
            "/repo/reproducers/demo.json: timeout_s must be 1 to 3600 seconds, not 0");
  EXPECT_NE(manifest_error(head + R"("issues": [], "modes": {"host": {"buggy": {"expect": "symptom"}}}})")
                .find("no source issue"),
            std::string::npos);
  EXPECT_EQ(manifest_error(head + R"("issues": [], "no_single_issue": "documented: nvcc -fmad",
      "modes": {"host": {"buggy": {"expect": "symptom"}}}})"),
            "");
  EXPECT_EQ(manifest_error(head + issues +
                           R"("modes": {"host": {"buggy": {"expect": "symptom", "modeled": ""}}}})"),
            "/repo/reproducers/demo.json: host/buggy: \"modeled\" must say why this run cannot observe the "
            "symptom");
}

// What a manifest's numbers, id, source issues and build targets may be: each refused case would have made
// a check run always or never (a capability that is no number, a maximum under the minimum, a timeout cut
// to a whole second), printed an escape in every suite line, pointed "modeled on this issue" nowhere, or
// run and read what is not the reproducer's (CMake's clean target, a file outside the build tree).
TEST(Manifest, NumbersIdsSourcesAndBuildPathsAreValidatedAtLoad) {
  auto manifest = [](const std::string& id, const std::string& requirements, const std::string& issues,
                     const std::string& rest) {
    return R"({"id": ")" + id + R"(", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
      "mechanism": "m", "requirements": )" +
           requirements + R"(, "issues": )" + issues + ", " + rest + "}";
  };
  const std::string req = R"({"min_compute_capability": "8.0"})";
  const std::string issue = R"(["https://github.com/o/r/issues/1"])";
  const std::string host = R"("modes": {"host": {"buggy": {"expect": "symptom"}}})";
  const std::string at = "/repo/reproducers/demo.json: ";
  auto error = [](const std::string& text) {
    try {
      parse_manifest(
          text, "/repo/reproducers/" + nlohmann::json::parse(text).at("id").get<std::string>() + ".json");
      return std::string();
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
  };
  EXPECT_EQ(error(manifest("demo", req, issue, host)), "");
  for (const char* bad : {"1e999", "nan", "-3", "9.0abc", "9", ""}) {
    EXPECT_EQ(
        error(manifest("demo", R"({"min_compute_capability": ")" + std::string(bad) + R"("})", issue, host)),
        at + "requirements: min_compute_capability '" + bad + "' is not a compute capability like \"9.0\"");
  }
  EXPECT_EQ(error(manifest("demo", R"({"min_compute_capability": "9.0", "max_compute_capability": "8.9"})",
                           issue, host)),
            at + "requirements: max_compute_capability is under min_compute_capability");
  EXPECT_EQ(error(manifest("demo", req, issue, host + R"(, "timeout_s": 1.9)")),
            at + "timeout_s must be a whole number of seconds, not 1.9");
  EXPECT_EQ(error(manifest("demo", req, issue, host + R"(, "timeout_s": 10000000000000000000)")),
            at + "timeout_s must be 1 to 3600 seconds, not 10000000000000000000");
  EXPECT_EQ(error(manifest("demo", req, issue, R"("modes": {})")),
            at + "no mode to run (\"modes\" is empty)");
  EXPECT_EQ(error(manifest("demo", req, issue,
                           R"("modes": {"build": {}, "host": {"buggy": {"expect": "symptom"}}})")),
            at + "mode 'build' has no variant to run");
  EXPECT_EQ(
      error(manifest("Demo\\u001b", req, issue, host)),
      "/repo/reproducers/Demo\\x1b.json: id 'Demo\\x1b' is not 1 to 64 lower-case letters, digits and '-'");
  EXPECT_EQ(error(manifest("demo", req, R"x(["javascript:alert(1)"])x", host)),
            at + "issues: 'javascript:alert(1)' is not an issue's page (it does not start with https:// or "
                 "http://)");
  EXPECT_EQ(
      error(manifest("demo", req, R"(["https://github.com/o/r/issues/1", "https://github.com/o/r/issues/1"])",
                     host)),
      at + "issues: 'https://github.com/o/r/issues/1' names an issue listed before");
  // The same issue by another spelling, and a pull request's page (the report names issues only).
  EXPECT_EQ(
      error(manifest("demo", req,
                     R"(["https://github.com/o/r/issues/1", "https://github.com/O/R/issues/1#top"])", host)),
      at + "issues: 'https://github.com/O/R/issues/1#top' names an issue listed before");
  EXPECT_EQ(error(manifest("demo", req, R"(["https://github.com/o/r/pull/2"])", host)),
            at + "issues: 'https://github.com/o/r/pull/2' is a pull request's page; name the issue it fixes");
  // A link as a browser shows it (a comment's anchor, a query, a closing '/'), and a timeout of 60.0.
  EXPECT_EQ(error(manifest(
                "demo", req,
                R"(["https://github.com/o/r/issues/1#issuecomment-5", "https://github.com/o/r/issues/2?q=1",
                               "https://github.com/o/r/issues/3/"])",
                host + R"(, "timeout_s": 60.0)")),
            "");
  EXPECT_EQ(error(manifest(
                "demo", req, issue,
                R"("modes": {"build": {"buggy": {"expect": "fails", "target": "clean", "message": "x"}}})")),
            at + "build/buggy: target 'clean' is not a reproducer's target (repro_ and letters, digits, '_', "
                 "'.', '-')");
  EXPECT_EQ(error(manifest(
                "demo", req, issue,
                R"("modes": {"build": {"buggy": {"expect": "fails", "target": "a/b", "message": "x"}}})")),
            at + "build/buggy: target 'a/b' is not a reproducer's target (repro_ and letters, digits, '_', "
                 "'.', '-')");
  EXPECT_EQ(error(manifest("demo", req, issue, R"("modes": {"build": {"buggy": {"expect": "builds",
      "artifact": "../../../etc/passwd", "artifact_matches": "root"}}})")),
            at + "build/buggy: artifact '../../../etc/passwd' must be a path inside the build tree");
  EXPECT_EQ(error(manifest("demo", req, issue, R"("modes": {"build": {"buggy": {"expect": "builds",
      "artifact": "/etc/passwd", "artifact_matches": "root"}}})")),
            at + "build/buggy: artifact '/etc/passwd' must be a path inside the build tree");
}

TEST(Process, KeepsTheLastMegabyteAndCountsWhatItDropped) {
  // 3,000,000 bytes of 'x' then "END": the last kOutputLimit bytes are kept.
  auto r = run_process({"sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' x; printf END"}, 60);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.size(), kOutputLimit);
  EXPECT_EQ(r.bytes_dropped, 3000003u - kOutputLimit);
  EXPECT_EQ(r.output.substr(r.output.size() - 4), "xEND");
}

TEST(Process, AChildThatClosesItsOutputButLivesOnIsKilledAtTheTimeout) {
  auto r = run_process({"sh", "-c", "exec >/dev/null 2>&1; sleep 30"}, 1);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.seconds, 10.0);
  EXPECT_THROW(run_process({"true"}, 0), faultline::Error);
}

// What is not well-formed UTF-8 in a harness's output becomes '?', byte by byte: an overlong '/', a
// surrogate, a code point past U+10FFFF (each made the JUnit file invalid XML); an 'é' stays.
TEST(Runner, ADetailKeepsOnlyWellFormedUtf8) {
  EXPECT_EQ(bounded_text("a\xC0\xAF"
                         "b\xED\xA0\x80"
                         "c\xF4\x90\x80\x80"
                         "d\xC3\xA9",
                         100),
            "a??b???c????d\xC3\xA9");
  // A verdict line with such a byte (a loader's message naming a path that is not UTF-8) is still the
  // verdict: read with '?' for the byte, not taken for a missing line.
  faultline::testing::TempDir dir;
  harness(dir, "buggy", "host", "printf '{\"symptom\": true, \"detail\": \"no /b\\351d\"}\\n'; exit 10");
  const auto r = run_variant(parse_manifest(kManifest, "demo.json"), "host", "buggy", env_for(dir));
  EXPECT_EQ(r.outcome, "reproduced");
  EXPECT_EQ(r.detail, "no /b?d");
}

TEST(Runner, AMegabyteDetailIsRecordedCutAndTheSuiteGoesOn) {
  faultline::testing::TempDir dir;
  // demo prints a 1,000,000-character detail (std::regex overflowed its stack from ~20,000); demo2 runs after
  // it.
  harness(dir, "buggy", "host",
          "printf '{\"symptom\": true, \"detail\": \"'; head -c 1000000 /dev/zero | tr '\\0' y; printf "
          "'\"}\\n'; exit 10");
  harness(dir, "buggy", "host", "echo '{\"symptom\": true, \"detail\": \"short\"}'; exit 10", "demo2");
  std::vector<Manifest> manifests{manifest_with(R"({"host": {"buggy": {"expect": "symptom"}}})", "demo", 30),
                                  manifest_with(R"({"host": {"buggy": {"expect": "symptom"}}})", "demo2")};
  faultline::datasets::Database db(dir.file("s.db"));
  auto summary = run_suite(db, manifests, {"host", 1}, env_for(dir), {});
  ASSERT_EQ(summary.results.size(), 2u);
  const auto& big = summary.results[0];
  EXPECT_EQ(big.outcome, "reproduced");
  EXPECT_EQ(big.detail, std::string(kDetailLimit, 'y') + " [cut: 1000000 bytes in all]");
  EXPECT_EQ(summary.results[1].detail, "short");
  auto stored = faultline::datasets::latest_suite_results(db);
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[0].detail, big.detail);
  // More than a megabyte of output: the line with the detail is cut at its start, so the tail stands in, and
  // with no verdict line left the exit status alone is not taken for one.
  harness(dir, "buggy", "host", "head -c 2000000 /dev/zero | tr '\\0' z; exit 10");
  auto cut = run_variant(manifests[0], "host", "buggy", env_for(dir));
  EXPECT_EQ(cut.outcome, "not-reproduced");
  EXPECT_EQ(cut.detail, "harness error (exit 10, without a verdict line): " + std::string(300, 'z') +
                            " [output cut: the first " + std::to_string(2000000 - kOutputLimit) +
                            " bytes were dropped, the last " + std::to_string(kOutputLimit) + " kept]");
}

TEST(Runner, RepeatedRunsReportStability) {
  faultline::testing::TempDir dir;
  Manifest m = manifest_with(R"({"host": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}},
                                  "gpu": {"buggy": {"expect": "symptom"}}})");
  auto env = env_for(dir);
  // Shows the symptom on runs 1 and 3 of 4 (a counter file alternates it): 2/4.
  std::string alternate = "n=$(cat " + dir.file("n") + " 2>/dev/null || echo 0); echo $((n+1)) > " +
                          dir.file("n") + "; [ $((n % 2)) -eq 0 ] && { " + kSaysSymptom + "; }; " +
                          kSaysCorrect;
  harness(dir, "buggy", "host", alternate);
  auto flaky = run_repeated(m, "host", "buggy", env, 4);
  EXPECT_EQ(flaky.outcome, "reproduced");  // seen at least once
  EXPECT_EQ(flaky.stability.runs, 4);
  EXPECT_EQ(flaky.stability.as_expected, 2);
  EXPECT_EQ(flaky.stability.status, "flaky");
  std::filesystem::remove(dir.file("n"));
  harness(dir, "fixed", "host", alternate);  // correct on runs 2 and 4 only: a fix must hold every time
  auto fixed = run_repeated(m, "host", "fixed", env, 4);
  EXPECT_EQ(fixed.outcome, "fail");
  EXPECT_EQ(fixed.stability.status, "flaky");
  harness(dir, "buggy", "host", kSaysSymptom);
  EXPECT_EQ(run_repeated(m, "host", "buggy", env, 3).stability.status, "reproducible");
  harness(dir, "buggy", "host", kSaysCorrect);
  auto never = run_repeated(m, "host", "buggy", env, 3);
  EXPECT_EQ(never.outcome, "not-reproduced");
  EXPECT_EQ(never.stability.as_expected, 0);
  EXPECT_EQ(never.stability.status, "unreproducible");
  EXPECT_EQ(run_repeated(m, "gpu", "buggy", env, 3).stability.status, "");  // skipped: no GPU
  EXPECT_THROW(run_repeated(m, "host", "buggy", env, 0), faultline::Error);
  // A fix that runs once and then skips itself did not hold every time (the skipped runs were dropped: a
  // pass, 1/1 reproducible).
  std::string then_skip = "n=$(cat " + dir.file("m") + " 2>/dev/null || echo 0); echo $((n+1)) > " +
                          dir.file("m") + "; [ $n -eq 0 ] && { " + kSaysCorrect + "; }; exit 77";
  harness(dir, "fixed", "host", then_skip);
  auto skipping = run_repeated(m, "host", "fixed", env, 3);
  EXPECT_EQ(skipping.outcome, "fail");
  EXPECT_EQ(skipping.stability.runs, 3);
  EXPECT_EQ(skipping.stability.as_expected, 1);
  EXPECT_FALSE(skipping.skipped_by_harness);  // a fail, not a skip (a Slurm task file with both was refused)
  EXPECT_EQ(skipping.detail.rfind("run 2 of 3 skipped itself after the first ran: ", 0), 0u)
      << skipping.detail;
}

TEST(Runner, EachResultRecordsToolkitDriverAndComputeCapability) {
  faultline::testing::TempDir dir;
  Manifest m = parse_manifest(kManifest, "demo.json");
  harness(dir, "fixed", "host", kSaysCorrect);
  auto none = run_variant(m, "host", "fixed", env_for(dir));
  EXPECT_EQ(none.cuda_toolkit + "|" + none.driver + "|" + none.compute_capability, "none|none|none");
  auto env = env_for(dir, Gpu{"NVIDIA H200", "580.159.03", 9.0});
  env.cuda_toolkit = "13.0";
  auto gpu = run_variant(m, "host", "fixed", env);
  EXPECT_EQ(gpu.cuda_toolkit + "|" + gpu.driver + "|" + gpu.compute_capability, "13.0|580.159.03|9.0");
}

TEST(Suite, GpuModeThatRanNothingIsUnhealthyAndSaysWhy) {
  faultline::testing::TempDir dir;
  std::vector<Manifest> manifests{parse_manifest(kManifest, "demo.json")};
  faultline::datasets::Database db(dir.file("s.db"));
  auto none = run_suite(db, manifests, {"gpu", 1}, env_for(dir), {});
  EXPECT_EQ(none.counts_line(), "gpu: 2 skipped");
  EXPECT_FALSE(none.healthy());
  EXPECT_EQ(none.problems(),
            std::vector<std::string>{
                "gpu mode ran nothing: all 2 GPU results were skipped (first: no GPU on this machine)"});
  // With a GPU and harnesses that behave, the same suite is healthy.
  harness(dir, "buggy", "gpu", kSaysSymptom);
  harness(dir, "fixed", "gpu", kSaysCorrect);
  auto ran = run_suite(db, manifests, {"gpu", 1}, env_for(dir, Gpu{"H200", "580", 9.0}), {});
  EXPECT_EQ(ran.counts_line(), "gpu: 1 reproduced, 1 pass");
  EXPECT_TRUE(ran.healthy());
  // Host mode with every result skipped is not a gpu problem: it is reported by its counts.
  harness(dir, "fixed", "host", "exit 77");
  harness(dir, "buggy", "host", kSaysCorrect);
  auto host = run_suite(db, manifests, {"host", 1}, env_for(dir), {});
  EXPECT_EQ(host.counts_line(), "host: 1 not-reproduced, 1 skipped");
  EXPECT_EQ(host.problems(), std::vector<std::string>{"demo [host/buggy] not-reproduced"});
  // Host mode asked for by name with every result skipped checked nothing, and says so (it exited 0).
  harness(dir, "buggy", "host", "exit 77");
  auto nothing = run_suite(db, manifests, {"host", 1}, env_for(dir), {});
  EXPECT_EQ(nothing.counts_line(), "host: 2 skipped");
  EXPECT_EQ(
      nothing.problems(),
      std::vector<std::string>{
          "host mode ran nothing: all 2 host results were skipped (first: the harness skipped itself and "
          "gave no reason)"});
  // Asked for as auto, host mode's skips are reported by its counts alone (auto runs what it can).
  EXPECT_TRUE(run_suite(db, manifests, {"auto", 1}, env_for(dir), {}).problems().empty());
}

TEST(Suite, JunitKeepsBuiltAndModeledOutOfFailuresAndSkips) {
  std::vector<RunResult> results{result_of("a", "build", "fixed", "built", "built 1 target(s)", 0.5),
                                 result_of("a", "host", "buggy", "modeled", "mechanism only", 0.5)};
  std::string xml = junit_xml({junit_suite(results)});
  EXPECT_NE(xml.find("tests=\"2\" failures=\"0\" skipped=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<system-out>built: built 1 target(s)</system-out>"), std::string::npos);
  EXPECT_NE(xml.find("<system-out>modeled: mechanism only</system-out>"), std::string::npos);
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

TEST(Process, ExitStatusesSurviveAParentThatIgnoresSigchld) {
  // With SIGCHLD ignored (inherited across exec from a parent that set it), the kernel reaps children
  // itself and waitpid fails with ECHILD: an exit 10 and a segfault both used to read as exit 0.
  auto ignoring = [](const std::vector<std::string>& argv) {
    signal(SIGCHLD, SIG_IGN);
    auto r = run_process(argv, 10);
    signal(SIGCHLD, SIG_DFL);
    return r;
  };
  auto symptom = ignoring({"sh", "-c", "exit 10"});
  EXPECT_EQ(symptom.exit_code, 10);
  EXPECT_EQ(symptom.status_lost, "");
  auto crash = ignoring({"sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(crash.exit_code, -1);
  EXPECT_EQ(crash.signal, SIGSEGV);

  // Through the runner: the fixed variant crashing is a harness error, never a pass.
  faultline::testing::TempDir dir;
  Manifest m = parse_manifest(kManifest, "demo.json");
  harness(dir, "buggy", "host", kSaysSymptom);
  harness(dir, "fixed", "host", "kill -SEGV $$");
  signal(SIGCHLD, SIG_IGN);
  auto buggy = run_variant(m, "host", "buggy", env_for(dir));
  signal(SIGCHLD, SIG_IGN);
  auto fixed = run_variant(m, "host", "fixed", env_for(dir));
  signal(SIGCHLD, SIG_DFL);
  EXPECT_EQ(buggy.outcome, "reproduced");
  EXPECT_EQ(fixed.outcome, "fail");
  EXPECT_EQ(fixed.detail.rfind("harness error (killed by signal 11)", 0), 0u) << fixed.detail;
}

TEST(Process, TimeoutsAreBoundedAndOutputUnderTwiceTheLimitIsStillCut) {
  // poll() takes an int of milliseconds: an unbounded timeout would overflow it.
  EXPECT_THROW(run_process({"true"}, kMaxTimeout + 1), faultline::Error);
  EXPECT_EQ(manifest_error(R"({"id": "demo", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
    "issues": ["https://github.com/o/r/issues/1"], "mechanism": "m", "requirements": {"min_compute_capability": "8.0"},
    "timeout_s": 3601, "modes": {}})"),
            "/repo/reproducers/demo.json: timeout_s must be 1 to 3600 seconds, not 3601");
  // 1,500,000 bytes: above the limit, below twice it, so only the final cut applies.
  auto r = run_process({"sh", "-c", "head -c 1499997 /dev/zero | tr '\\0' x; printf END"}, 60);
  EXPECT_EQ(r.output.size(), kOutputLimit);
  EXPECT_EQ(r.bytes_dropped, 1500000u - kOutputLimit);
  EXPECT_EQ(r.output.substr(r.output.size() - 4), "xEND");
}

TEST(Manifest, ArtifactsNeedBuildModeAndAPatternAndUnknownKeysAreNamed) {
  const std::string head = R"({"id": "demo", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
    "issues": ["https://github.com/o/r/issues/1"], "mechanism": "m", "requirements": {"min_compute_capability": "8.0"}, )";
  EXPECT_EQ(
      manifest_error(head + R"("modes": {"build": {"buggy": {"expect": "builds", "artifact": "a.ptx"}}}})"),
      "/repo/reproducers/demo.json: build/buggy: \"artifact\" needs \"artifact_matches\" or "
      "\"artifact_lacks\" to check it against");
  EXPECT_EQ(manifest_error(head + R"("modes": {"host": {"buggy": {"expect": "symptom", "artifact": "a.ptx",
      "artifact_matches": "fma"}}}})"),
            "/repo/reproducers/demo.json: host/buggy: \"artifact\" is inspected only in build mode with "
            "\"expect\": \"builds\"");
  EXPECT_EQ(manifest_error(
                head + R"("modes": {"build": {"buggy": {"expect": "builds", "artifact_matches": "fma"}}}})"),
            "/repo/reproducers/demo.json: build/buggy: \"artifact_matches\"/\"artifact_lacks\" need an "
            "\"artifact\" to inspect");
  EXPECT_EQ(manifest_error(head + R"("modes": {"build": {"buggy": {"expect": "builds", "artifact": "a.ptx",
      "artifact_match": "fma"}}}})"),
            "/repo/reproducers/demo.json: build/buggy: unknown key 'artifact_match'");
  EXPECT_EQ(manifest_error(head + R"("timeout": 5, "modes": {}})"),
            "/repo/reproducers/demo.json: unknown key 'timeout'");
  std::string req = head;
  req.replace(req.find("\"8.0\"}"), 6, R"("8.0", "gpu": "H200"})");
  EXPECT_EQ(manifest_error(req + R"("modes": {}})"),
            "/repo/reproducers/demo.json: requirements: unknown key 'gpu'");
  // The same manifest with its keys spelt right loads.
  EXPECT_EQ(manifest_error(head + R"("modes": {"build": {"buggy": {"expect": "builds", "artifact": "a.ptx",
      "artifact_matches": "fma"}}}})"),
            "");
}

TEST(Runner, AMissingArtifactIsAFailureWithADetailAndTheSuiteGoesOn) {
  faultline::testing::TempDir dir;
  configure_stub_project(dir);
  std::vector<Manifest> manifests{manifest_with(R"({"build": {
      "buggy": {"expect": "builds", "artifact": "never-written.ptx", "artifact_matches": "fma"},
      "fixed": {"expect": "builds", "artifact": "fixed.ptx", "artifact_lacks": "fma\\.rn\\.f32"}}})")};
  faultline::datasets::Database db(dir.file("s.db"));
  auto summary = run_suite(db, manifests, {"build", 1}, env_for(dir), {});
  ASSERT_EQ(summary.results.size(), 2u);
  EXPECT_EQ(summary.results[0].outcome, "not-reproduced");
  EXPECT_EQ(summary.results[0].detail, "built, but never-written.ptx was not produced");
  EXPECT_EQ(summary.results[1].outcome, "pass");  // the run after it still ran
}

TEST(Suite, AGpuSkipTheRunnerDidNotPredictIsAProblem) {
  faultline::testing::TempDir dir;
  std::vector<Manifest> manifests{parse_manifest(kManifest, "demo.json")};
  faultline::datasets::Database db(dir.file("s.db"));
  auto h200 = env_for(dir, Gpu{"H200", "580", 9.0});
  // The device meets the manifest's requirements, yet the fixed harness refuses to run.
  harness(dir, "buggy", "gpu", kSaysSymptom);
  harness(dir, "fixed", "gpu", "echo '{\"skipped\": true, \"detail\": \"no CUDA device\"}'; exit 77");
  auto refused = run_suite(db, manifests, {"gpu", 1}, h200, {});
  EXPECT_EQ(refused.counts_line(), "gpu: 1 reproduced, 1 skipped");
  EXPECT_EQ(refused.problems(),
            std::vector<std::string>{"demo [gpu/fixed] skipped by the harness on a device the runner "
                                     "expected to run it: no CUDA device"});
  // The same skip predicted by the runner (the device is too old) is not a problem of its own.
  auto predicted = run_problems("gpu", {result_of("demo", "gpu", "fixed", "skipped",
                                                  "compute capability 7.0 < "
                                                  "required 8.0",
                                                  0),
                                        result_of("demo", "gpu", "buggy", "reproduced", "", 0)});
  EXPECT_TRUE(predicted.empty());
  // A host harness skipping is the harness's own call (no toolkit, say), not a gpu problem.
  harness(dir, "fixed", "host", "exit 77");
  harness(dir, "buggy", "host", kSaysSymptom);
  const auto host = run_suite(db, manifests, {"host", 1}, h200, {});
  EXPECT_TRUE(host.healthy());
  // It printed no reason: the result says so rather than show an empty one.
  ASSERT_EQ(host.results.size(), 2u);
  EXPECT_EQ(host.results[1].outcome, "skipped");
  EXPECT_EQ(host.results[1].detail, "the harness skipped itself and gave no reason");
}

TEST(Suite, GpuModeAskedForWhereNoReproducerHasOneIsAProblem) {
  faultline::testing::TempDir dir;
  std::vector<Manifest> manifests{manifest_with(R"({"host": {"buggy": {"expect": "symptom"}}})")};
  faultline::datasets::Database db(dir.file("s.db"));
  auto summary = run_suite(db, manifests, {"gpu", 1}, env_for(dir, Gpu{"H200", "580", 9.0}), {});
  EXPECT_EQ(summary.counts_line(), "gpu: nothing to run");
  EXPECT_EQ(summary.problems(),
            std::vector<std::string>{"gpu mode ran nothing: no reproducer run has a gpu mode"});
  // auto mode on the same machine asks for no mode in particular: nothing to report.
  EXPECT_TRUE(run_problems("auto", {}).empty());
}

TEST(Verdict, DetailsWithControlCharactersStayValidJson) {
  // nlohmann::json parses the line back: the reference is an independent JSON reader, not json_escape.
  std::string detail = std::string("tab\there, cr\r, bell\a, esc\x1b, nul") + '\0' + " \"q\" \\ end\n";
  std::string line = "{\"detail\": \"" + faultline::repro::json_escape(detail) + "\"}";
  nlohmann::json parsed;
  ASSERT_NO_THROW(parsed = nlohmann::json::parse(line)) << line;
  EXPECT_EQ(parsed["detail"].get<std::string>(), detail);
  EXPECT_EQ(faultline::repro::json_escape("\t"), "\\u0009");
}

// An empty or mistyped --manifests folder made a suite of nothing that passed; a link to a device among the
// manifests was read until memory ran out, a FIFO forever.
TEST(Manifest, AFolderWithoutManifestsOrWithOneThatIsNoFileIsRefused) {
  faultline::testing::TempDir dir;
  std::filesystem::create_directories(dir.file("empty"));
  std::ofstream(dir.file("empty/notes.txt")) << "not a manifest";
  try {
    load_manifests(dir.file("empty"));
    ADD_FAILURE() << "loaded";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("empty") +
                                         ": no reproducer manifests (*.json) here (check --manifests where a "
                                         "verb takes it, or the installed "
                                         "share/faultline/reproducers)");
  }
  std::filesystem::create_directories(dir.file("odd"));
  std::filesystem::create_symlink("/dev/zero", dir.file("odd/zero.json"));
  try {
    load_manifests(dir.file("odd"));
    ADD_FAILURE() << "loaded";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              dir.file("odd/zero.json") + ": not a regular file; a manifest is a JSON file");
  }
  // A huge file is refused once kLargestManifestBytes are read, not read whole (whitespace: valid JSON so
  // far).
  std::filesystem::create_directories(dir.file("huge"));
  std::ofstream(dir.file("huge/big.json")) << std::string(kLargestManifestBytes + 1, ' ');
  try {
    load_manifests(dir.file("huge"));
    ADD_FAILURE() << "loaded";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(dir.file("huge/big.json") + ": more than ", 0), 0u) << e.what();
  }
  // The bundled folder loads (every manifest in it a file).
  EXPECT_FALSE(load_manifests(std::string(FAULTLINE_SOURCE_DIR) + "/reproducers").empty());
}

// A reproducer id with a typo is answered with the nearest id; one near none, with the list to look at.
TEST(Manifest, AnUnknownIdSuggestsTheNearestOne) {
  const auto all = load_manifests(std::string(FAULTLINE_SOURCE_DIR) + "/reproducers");
  auto message = [&](const std::string& id) {
    try {
      find_manifest(all, id);
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string("found");
  };
  EXPECT_EQ(message("int16-bound-overflw"),
            "no reproducer 'int16-bound-overflw'; did you mean 'int16-bound-overflow'? (see 'faultline repro "
            "list')");
  EXPECT_EQ(message("zzz"), "no reproducer 'zzz' (see 'faultline repro list')");
  EXPECT_EQ(message("int16-bound-overflow"), "found");
  // An id typed in capitals is not found (ids are lower case) but is suggested.
  EXPECT_EQ(
      message("INT16-Bound-Overflow"),
      "no reproducer 'INT16-Bound-Overflow'; did you mean 'int16-bound-overflow'? (see 'faultline repro "
      "list')");
}
