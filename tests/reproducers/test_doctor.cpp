#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "reproducers/doctor.hpp"
#include "reproducers/manifest.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::reproducers;

namespace {

// Needs compute capability 8.0 in gpu mode; runs in host mode anywhere.
const char* kManifest = R"({
  "id": "demo", "title": "t", "symptom": "crash", "root_cause": "api_misuse",
  "issues": ["https://github.com/o/r/issues/1"],
  "mechanism": "m", "requirements": {"min_compute_capability": "8.0"}, "timeout_s": 2,
  "modes": {"host": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}},
            "gpu": {"buggy": {"expect": "symptom"}, "fixed": {"expect": "correct"}}}
})";

// A build directory holding the demo reproducer's harnesses of `modes` (empty files where the runner looks).
std::string build_with(faultline::testing::TempDir& dir, std::initializer_list<const char*> modes) {
  std::filesystem::create_directories(dir.file("build/kernels/demo"));
  for (const char* mode : modes) {
    for (const char* variant : {"buggy", "fixed"})
      dir.write(std::string("build/kernels/demo/repro_demo_") + variant + "_" + mode, "");
  }
  return dir.file("build");
}

Environment machine(std::optional<Gpu> gpu, const std::string& build_dir = "/nonexistent/build") {
  Environment env;
  env.build_dir = build_dir;
  env.manifest_dir = "/m";
  env.have_cuda = true;
  env.nvcc = "/usr/local/cuda/bin/nvcc";
  env.cuda_toolkit = "13.0";
  env.gpu = gpu;
  env.cuda_driver_version = gpu ? "13.0" : "";
  return env;
}

// Every key of every object, at any depth, except the reproducer ids (they are manifest names).
void expect_snake_case_keys(const nlohmann::json& j, const std::string& where) {
  static const std::regex snake("[a-z][a-z0-9_]*");
  for (auto it = j.begin(); j.is_object() && it != j.end(); ++it) {
    if (where != "reproducers") {
      EXPECT_TRUE(std::regex_match(it.key(), snake)) << where << "." << it.key();
    }
    if (it.value().is_object()) expect_snake_case_keys(it.value(), it.key());
  }
}

}  // namespace

TEST(Doctor, JsonHasLowerCaseKeysAndDataValuesWithoutAGpu) {
  faultline::testing::TempDir dir;
  auto report = doctor_report(machine(std::nullopt, build_with(dir, {"host", "gpu"})),
                              {parse_manifest(kManifest, "demo.json")});
  auto j = doctor_json(report);
  expect_snake_case_keys(j, "");
  EXPECT_EQ(j["gpu_found"], false);
  EXPECT_TRUE(j["gpu"].is_null());  // not a sentence saying that none was found
  EXPECT_EQ(j["nvcc"]["cuda_toolkit"], "13.0");
  EXPECT_EQ(j["gpu_harnesses_built"], true);
  EXPECT_EQ(j["build_dir_found"], true);
  const auto& demo = j["reproducers"]["demo"];
  EXPECT_EQ(demo["host_mode"], true);
  EXPECT_EQ(demo["host_runs_here"], true);
  EXPECT_EQ(demo["gpu_mode"], true);
  EXPECT_EQ(demo["gpu_built"], true);
  EXPECT_EQ(demo["gpu_runs_here"], false);
  ASSERT_TRUE(demo["gpu_skip_reason"].is_string());
}

// What is not in the build directory does not run, whatever the manifest allows: a missing directory, or
// one variant's harness missing (it said "host: runs" of a build directory that did not exist).
TEST(Doctor, AModeWhoseHarnessesAreNotAllBuiltDoesNotRun) {
  const auto manifests = std::vector<Manifest>{parse_manifest(kManifest, "demo.json")};
  const Gpu h200{"NVIDIA H200", "580.65.06", 9.0};
  auto j = doctor_json(doctor_report(machine(h200), manifests));
  EXPECT_EQ(j["build_dir_found"], false);
  EXPECT_EQ(j["gpu_harnesses_built"], false);
  EXPECT_EQ(j["reproducers"]["demo"]["host_runs_here"], false);
  EXPECT_EQ(j["reproducers"]["demo"]["gpu_runs_here"], false);
  EXPECT_EQ(readiness_text(doctor_report(machine(h200), manifests).reproducers[0]),
            "host: not built; gpu: not built");
  // A directory that cannot be looked into (here a name too long for the system) is not found either,
  // rather than an error from the file system library.
  const auto unreadable = doctor_report(machine(h200, "/" + std::string(5000, 'x')), manifests);
  EXPECT_EQ(readiness_text(unreadable.reproducers[0]), "host: not built; gpu: not built");
  EXPECT_EQ(doctor_json(unreadable)["build_dir_found"], false);
  faultline::testing::TempDir dir;
  const std::string build = build_with(dir, {"host", "gpu"});
  std::filesystem::remove(build + "/kernels/demo/repro_demo_fixed_gpu");
  const auto report = doctor_report(machine(h200, build), manifests);
  EXPECT_EQ(readiness_text(report.reproducers[0]), "host: runs; gpu: not built");
  EXPECT_EQ(doctor_json(report)["gpu_harnesses_built"], false);
}

// Manifests without a gpu mode have no GPU harness to build: "all built" would be true of nothing.
TEST(Doctor, GpuHarnessesBuiltIsNullWhenNoManifestHasAGpuMode) {
  faultline::testing::TempDir dir;
  const std::string build = build_with(dir, {"host"});
  auto host_only = nlohmann::json::parse(kManifest);
  host_only["modes"].erase("gpu");
  const auto manifests = std::vector<Manifest>{parse_manifest(host_only.dump(), "demo.json")};
  auto j = doctor_json(doctor_report(machine(std::nullopt, build), manifests));
  EXPECT_TRUE(j["gpu_harnesses_built"].is_null()) << j["gpu_harnesses_built"];
  EXPECT_EQ(j["reproducers"]["demo"]["host_runs_here"], true);
}

TEST(Doctor, JsonGivesTheGpuAsNumbersAndVersionsAndSaysWhatRunsOnIt) {
  faultline::testing::TempDir dir;
  const std::string build = build_with(dir, {"host", "gpu"});
  auto manifests = std::vector<Manifest>{parse_manifest(kManifest, "demo.json")};
  auto j = doctor_json(doctor_report(machine(Gpu{"NVIDIA H200", "580.65.06", 9.0}, build), manifests));
  expect_snake_case_keys(j, "");
  EXPECT_EQ(j["gpu_found"], true);
  EXPECT_EQ(j["gpu"]["name"], "NVIDIA H200");
  EXPECT_EQ(j["gpu"]["driver"], "580.65.06");
  ASSERT_TRUE(j["gpu"]["compute_capability"].is_number());
  EXPECT_DOUBLE_EQ(j["gpu"]["compute_capability"].get<double>(), 9.0);
  EXPECT_EQ(j["reproducers"]["demo"]["gpu_runs_here"], true);
  EXPECT_TRUE(j["reproducers"]["demo"]["gpu_skip_reason"].is_null());
  // A 7.0 device is below the manifest's 8.0: the same reproducer is skipped there, with the reason.
  j = doctor_json(doctor_report(machine(Gpu{"Tesla V100", "535.0", 7.0}, build), manifests));
  EXPECT_EQ(j["reproducers"]["demo"]["gpu_runs_here"], false);
  EXPECT_EQ(j["reproducers"]["demo"]["gpu_skip_reason"], "compute capability 7.0 < required 8.0");
}

TEST(Doctor, TextSaysPerModeWhatRuns) {
  EXPECT_EQ(readiness_text({"x", true, true, std::nullopt, true, true}), "host: runs; gpu: runs");
  EXPECT_EQ(readiness_text({"x", false, true, "no GPU found", false, true}),
            "no host mode; gpu: skipped (no GPU found)");
  EXPECT_EQ(readiness_text({"x", true, false, std::nullopt, true, false}), "host: runs; no gpu mode");
}
