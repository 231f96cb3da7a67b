// What `faultline doctor` reports: the machine's facts and, per reproducer, what can run here; as text for
// people and as JSON data (lower-case stable keys, booleans, numbers, version strings) for programs.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reproducers/environment.hpp"
#include "reproducers/manifest.hpp"

namespace faultline::reproducers {

struct ReproducerReadiness {
  std::string id;
  bool host_mode = false;
  bool gpu_mode = false;
  std::optional<std::string> gpu_skip_reason;  // set when it has a gpu mode that cannot run here
  // Whether the harness of every variant of the mode is in the build directory.
  bool host_built = false;
  bool gpu_built = false;
};

struct DoctorReport {
  Environment env;
  std::vector<ReproducerReadiness> reproducers;
};

DoctorReport doctor_report(const Environment& env, const std::vector<Manifest>& manifests);

// "host: runs; gpu: skipped (no GPU found)", for the text listing; a mode whose harnesses are not all in the
// build directory is "not built".
std::string readiness_text(const ReproducerReadiness& r);

// {"gpu_found": bool, "gpu": {"name", "driver", "cuda_driver_version", "compute_capability"} or null,
//  "nvcc": {"path", "cuda_toolkit"} or null, "gpu_harnesses_built": bool (every gpu mode's harnesses are in
//  the build directory) or null (no manifest has a gpu mode), "build_dir", "build_dir_found", "manifest_dir",
//  "reproducers": {ID: {"host_mode", "host_built", "host_runs_here", "gpu_mode", "gpu_built", "gpu_runs_here",
//  "gpu_skip_reason" (string or null)}}};
// an unknown version is null, never a sentence.
nlohmann::json doctor_json(const DoctorReport& report);

}  // namespace faultline::reproducers
