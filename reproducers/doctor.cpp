#include "reproducers/doctor.hpp"

#include "reproducers/runner.hpp"

namespace faultline::reproducers {

DoctorReport doctor_report(const Environment& env, const std::vector<Manifest>& manifests) {
  DoctorReport report;
  report.gpu_found = env.gpu.has_value();
  report.facts = describe(env);
  for (const auto& m : manifests) {
    auto skip = gpu_skip_reason(m, env);
    std::string gpu = !m.modes.count("gpu") ? "no gpu mode" : skip ? "gpu: skipped (" + *skip + ")" : "gpu: runs";
    std::string host = m.modes.count("host") ? "host: runs" : "no host mode";
    report.reproducers.push_back({m.id, host, gpu});
  }
  return report;
}

}  // namespace faultline::reproducers
