// What `faultline doctor` reports: the machine's facts and, per reproducer, what can run here.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reproducers/environment.hpp"
#include "reproducers/manifest.hpp"

namespace faultline::reproducers {

struct ReproducerReadiness {
  std::string id;
  std::string host;  // "host: runs" | "no host mode"
  std::string gpu;   // "gpu: runs" | "gpu: skipped (<reason>)" | "no gpu mode"
};

struct DoctorReport {
  bool gpu_found = false;  // the one answer tests and scripts ask for ("is there a GPU here?")
  std::vector<std::pair<std::string, std::string>> facts;
  std::vector<ReproducerReadiness> reproducers;
};

DoctorReport doctor_report(const Environment& env, const std::vector<Manifest>& manifests);

}  // namespace faultline::reproducers
