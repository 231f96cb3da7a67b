// A reproducer's manifest (reproducers/<id>.json): what it models, where it comes from, what it needs, and
// what each variant is expected to do in each mode.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace faultline::reproducers {

// A manifest pattern: its source text and the RE2 compiled (and validated) when the manifest was loaded.
struct Pattern {
  std::string text;
  std::shared_ptr<const re2::RE2> re;  // null when the manifest gives no pattern
  bool empty() const { return text.empty(); }
};

struct Expectation {
  std::string expect;        // build: builds | fails; host/gpu: symptom | correct
  Pattern message;           // fails: what the compiler or loader output must match
  std::string target;        // fails: the EXCLUDE_FROM_ALL CMake target to try; builds: one more to build
  std::string artifact;      // builds: file (relative to the build dir) to inspect
  Pattern artifact_matches;  // what the artifact must contain
  Pattern artifact_lacks;    // what the artifact must not contain
  // Why this run can check only the mechanism, not observe the symptom; a match is then `modeled`.
  std::string modeled;
};

struct Manifest {
  std::string id;
  std::string title;
  std::string symptom;
  std::string root_cause;
  std::vector<std::string> issues;  // source issue URLs
  // Set when `issues` is empty: the documented mechanism the case models, with where it is documented.
  std::string no_single_issue;
  std::string fix;  // the fix's reference (release, pull request), where known
  std::string mechanism;
  double min_compute_capability = 0;
  std::optional<double> max_compute_capability;
  bool needs_cuda_toolkit = false;
  // modes[mode][variant]; a variant absent from a mode does not run in it.
  std::map<std::string, std::map<std::string, Expectation>> modes;
  int timeout_s = 60;
};

// Parses and validates (no unknown keys, taxonomy ids, known modes and expectations, at least one mode,
// patterns that compile, an artifact only in build mode and with a pattern, build targets and artifacts
// inside the build tree, compute capabilities like "9.0" with the maximum not under the minimum, a whole
// timeout of 1 to kMaxTimeout seconds, source issues that are issue pages, each once, or a stated
// documented mechanism, an id of lower-case letters, digits and '-' equal to the file name); errors name
// `path`.
Manifest parse_manifest(const std::string& text, const std::string& path);
// The most a manifest file may hold (the bundled ones hold under 3 KB).
constexpr size_t kLargestManifestBytes = 1 << 20;
// Every *.json in `directory`, sorted by id; an error when there is none, or when one is not a regular file
// or holds more than kLargestManifestBytes.
std::vector<Manifest> load_manifests(const std::string& directory);
const Manifest& find_manifest(const std::vector<Manifest>& all, const std::string& id);

// True when `pattern` occurs in `text` (an empty pattern occurs everywhere).
bool pattern_found(const Pattern& pattern, const std::string& text);

}  // namespace faultline::reproducers
