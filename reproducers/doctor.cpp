#include "reproducers/doctor.hpp"

#include <nlohmann/json.hpp>

#include "reproducers/runner.hpp"

namespace faultline::reproducers {

namespace {

nlohmann::json version_or_null(const std::string& version) {
  return version.empty() ? nlohmann::json(nullptr) : nlohmann::json(version);
}

}  // namespace

DoctorReport doctor_report(const Environment& env, const std::vector<Manifest>& manifests) {
  DoctorReport report{env, {}};
  for (const auto& m : manifests) {
    ReproducerReadiness r{m.id, m.modes.count("host") > 0, m.modes.count("gpu") > 0, std::nullopt};
    if (r.gpu_mode) r.gpu_skip_reason = gpu_skip_reason(m, env);
    report.reproducers.push_back(r);
  }
  return report;
}

std::string readiness_text(const ReproducerReadiness& r) {
  std::string gpu = !r.gpu_mode         ? "no gpu mode"
                    : r.gpu_skip_reason ? "gpu: skipped (" + *r.gpu_skip_reason + ")"
                                        : "gpu: runs";
  return std::string(r.host_mode ? "host: runs" : "no host mode") + "; " + gpu;
}

nlohmann::json doctor_json(const DoctorReport& report) {
  const Environment& env = report.env;
  nlohmann::json j = {{"gpu_found", env.gpu.has_value()},
                      {"gpu", nullptr},
                      {"nvcc", nullptr},
                      {"gpu_harnesses_built", env.have_cuda},
                      {"build_dir", env.build_dir},
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
                         {"gpu_mode", r.gpu_mode},
                         {"gpu_runs_here", r.gpu_mode && !r.gpu_skip_reason},
                         {"gpu_skip_reason",
                          r.gpu_skip_reason ? nlohmann::json(*r.gpu_skip_reason) : nlohmann::json(nullptr)}};
  }
  j["reproducers"] = reproducers;
  return j;
}

}  // namespace faultline::reproducers
