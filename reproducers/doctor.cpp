#include "reproducers/doctor.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "reproducers/runner.hpp"

namespace faultline::reproducers {

namespace {

nlohmann::json version_or_null(const std::string& version) {
  return version.empty() ? nlohmann::json(nullptr) : nlohmann::json(version);
}

// Whether the harness of every variant `mode` runs is where the runner looks for it.
bool harnesses_built(const Environment& env, const Manifest& m, const std::string& mode) {
  auto variants = m.modes.find(mode);
  if (variants == m.modes.end()) return false;
  for (const auto& [variant, expectation] : variants->second) {
    std::error_code unreadable;  // a directory it may not look into: not found, so not built
    if (!std::filesystem::is_regular_file(harness_path(env, m, variant, mode), unreadable)) return false;
  }
  return true;
}

}  // namespace

DoctorReport doctor_report(const Environment& env, const std::vector<Manifest>& manifests) {
  DoctorReport report{env, {}};
  for (const auto& m : manifests) {
    ReproducerReadiness r{m.id, m.modes.count("host") > 0, m.modes.count("gpu") > 0, std::nullopt};
    if (r.gpu_mode) r.gpu_skip_reason = gpu_skip_reason(m, env);
    r.host_built = harnesses_built(env, m, "host");
    r.gpu_built = harnesses_built(env, m, "gpu");
    report.reproducers.push_back(r);
  }
  return report;
}

std::string readiness_text(const ReproducerReadiness& r) {
  std::string gpu = !r.gpu_mode         ? "no gpu mode"
                    : r.gpu_skip_reason ? "gpu: skipped (" + *r.gpu_skip_reason + ")"
                    : !r.gpu_built      ? "gpu: not built"
                                        : "gpu: runs";
  std::string host = !r.host_mode ? "no host mode" : r.host_built ? "host: runs" : "host: not built";
  return host + "; " + gpu;
}

nlohmann::json doctor_json(const DoctorReport& report) {
  const Environment& env = report.env;
  const auto& rs = report.reproducers;
  // With no gpu mode among the manifests there is nothing to be built: null, not a vacuous true.
  const bool any_gpu_mode = std::any_of(rs.begin(), rs.end(), [](const auto& r) { return r.gpu_mode; });
  const bool every_gpu_mode_built =
      std::all_of(rs.begin(), rs.end(), [](const auto& r) { return !r.gpu_mode || r.gpu_built; });
  nlohmann::json j = {
      {"gpu_found", env.gpu.has_value()},
      {"gpu", nullptr},
      {"nvcc", nullptr},
      {"gpu_harnesses_built", any_gpu_mode ? nlohmann::json(every_gpu_mode_built) : nlohmann::json(nullptr)},
      {"build_dir", env.build_dir},
      {"build_dir_found", build_dir_found(env)},
      {"manifest_dir", env.manifest_dir}};
  if (env.gpu) {
    j["gpu"] = {{"name", env.gpu->name},
                {"driver", version_or_null(env.gpu->driver)},
                {"cuda_driver_version", version_or_null(env.cuda_driver_version)},
                {"compute_capability", env.gpu->compute_capability}};
  }
  if (env.have_cuda) j["nvcc"] = {{"path", env.nvcc}, {"cuda_toolkit", version_or_null(env.cuda_toolkit)}};
  nlohmann::json reproducers = nlohmann::json::object();
  for (const auto& r : report.reproducers) {
    reproducers[r.id] = {{"host_mode", r.host_mode},
                         {"host_built", r.host_built},
                         {"host_runs_here", r.host_mode && r.host_built},
                         {"gpu_mode", r.gpu_mode},
                         {"gpu_built", r.gpu_built},
                         {"gpu_runs_here", r.gpu_mode && !r.gpu_skip_reason && r.gpu_built},
                         {"gpu_skip_reason",
                          r.gpu_skip_reason ? nlohmann::json(*r.gpu_skip_reason) : nlohmann::json(nullptr)}};
  }
  j["reproducers"] = reproducers;
  return j;
}

}  // namespace faultline::reproducers
