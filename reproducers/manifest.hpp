// A reproducer's manifest (reproducers/<id>.json): what it models, what it needs, and what each variant
// is expected to do in each mode.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace faultline::reproducers {

struct Expectation {
  std::string expect;            // build: builds | fails; host/gpu: symptom | correct
  std::string message;           // fails: regex the compiler output must match
  std::string target;            // fails: the EXCLUDE_FROM_ALL CMake target to try; builds: one more to build
  std::string artifact;          // builds: file (relative to the build dir) to inspect
  std::string artifact_matches;  // regex the artifact must contain
  std::string artifact_lacks;    // regex the artifact must not contain
};

struct Manifest {
  std::string id;
  std::string title;
  std::string symptom;
  std::string root_cause;
  std::vector<std::string> issues;  // source issue URLs
  std::string mechanism;
  double min_compute_capability = 0;
  std::optional<double> max_compute_capability;
  bool needs_cuda_toolkit = false;
  // modes[mode][variant]; a variant absent from a mode does not run in it.
  std::map<std::string, std::map<std::string, Expectation>> modes;
  int timeout_s = 60;
};

// Parses and validates (taxonomy ids, known modes and expectations, id = file name).
Manifest parse_manifest(const std::string& text, const std::string& path);
// Every *.json in `directory`, sorted by id.
std::vector<Manifest> load_manifests(const std::string& directory);
const Manifest& find_manifest(const std::vector<Manifest>& all, const std::string& id);

}  // namespace faultline::reproducers
