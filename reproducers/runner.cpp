#include "reproducers/runner.hpp"

#include <filesystem>
#include <regex>

#include "common/text_file.hpp"
#include "reproducers/process.hpp"
#include "common/error.hpp"

namespace faultline::reproducers {

namespace {

constexpr int kHarnessCorrect = 0;
constexpr int kHarnessSymptom = 10;
constexpr int kHarnessSkipped = 77;

std::string binary(const Environment& env, const Manifest& m, const std::string& variant,
                   const std::string& kind) {
  return env.build_dir + "/kernels/" + m.id + "/repro_" + m.id + "_" + variant + "_" + kind;
}

// The harness's "detail" from its JSON line, or the last lines of output when there is none.
std::string harness_detail(const std::string& output) {
  std::smatch match;
  static const std::regex detail_re("\"detail\": \"((?:[^\"\\\\]|\\\\.)*)\"");
  if (std::regex_search(output, match, detail_re)) return match[1].str();
  std::string tail = output.size() > 300 ? output.substr(output.size() - 300) : output;
  return tail;
}

RunResult skipped(const Manifest& m, const std::string& mode, const std::string& variant,
                  const std::string& reason) {
  return {m.id, mode, variant, "skipped", reason, 0};
}

std::string outcome_for(const std::string& variant, bool as_expected) {
  if (variant == "buggy") return as_expected ? "reproduced" : "not-reproduced";
  return as_expected ? "pass" : "fail";
}

std::string first_match(const std::string& text, const std::regex& re) {
  std::smatch match;
  if (!std::regex_search(text, match, re)) return "";
  size_t begin = text.rfind('\n', match.position(0));
  size_t end = text.find('\n', match.position(0));
  begin = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(begin, (end == std::string::npos ? text.size() : end) - begin);
}

RunResult run_build(const Manifest& m, const std::string& variant, const Expectation& x,
                    const Environment& env) {
  RunResult r{m.id, "build", variant, "", "", 0};
  if (!std::filesystem::exists(env.build_dir + "/CMakeCache.txt")) {
    return skipped(m, "build", variant,
                   "no CMake build tree in " + env.build_dir +
                       " (prebuilt harnesses): build mode runs where the project is built");
  }
  if (m.needs_cuda_toolkit && !env.have_cuda)
    return skipped(m, "build", variant, "no nvcc: install the CUDA Toolkit");
  if (x.expect == "fails") {
    auto p = run_process({"cmake", "--build", env.build_dir, "--target", x.target}, 600);
    r.seconds = p.seconds;
    std::string line = first_match(p.output, std::regex(x.message));
    bool failed_as_expected = p.exit_code != 0 && !line.empty();
    r.outcome = outcome_for(variant, failed_as_expected);
    r.detail = failed_as_expected ? "fails to build as expected: " + line
               : p.exit_code == 0
                   ? "builds, but it should fail with /" + x.message + "/"
                   : "fails to build, but without /" + x.message + "/: " + harness_detail(p.output);
    return r;
  }
  std::vector<std::string> targets;
  if (m.modes.count("host") && m.modes.at("host").count(variant))
    targets.push_back("repro_" + m.id + "_" + variant + "_host");
  if (env.have_cuda && m.modes.count("gpu") && m.modes.at("gpu").count(variant)) {
    targets.push_back("repro_" + m.id + "_" + variant + "_gpu");
  }
  if (!x.artifact.empty() && env.have_cuda) targets.push_back("repro_" + m.id + "_" + variant + "_ptx");
  if (!x.target.empty()) targets.push_back(x.target);
  if (targets.empty()) return skipped(m, "build", variant, "nothing to build here without nvcc");
  std::vector<std::string> argv{"cmake", "--build", env.build_dir, "--target"};
  argv.insert(argv.end(), targets.begin(), targets.end());
  auto p = run_process(argv, 600);
  r.seconds = p.seconds;
  if (p.exit_code != 0) {
    r.outcome = outcome_for(variant, false);
    r.detail = "does not build: " + harness_detail(p.output);
    return r;
  }
  if (x.artifact.empty()) {
    // A build check, not a reproduction: the variant compiles as it should.
    r.outcome = "pass";
    r.detail = "built " + std::to_string(targets.size()) + " target(s)";
    return r;
  }
  std::string text = common::read_text_file(env.build_dir + "/" + x.artifact);
  bool matches = x.artifact_matches.empty() || std::regex_search(text, std::regex(x.artifact_matches));
  bool lacks = x.artifact_lacks.empty() || !std::regex_search(text, std::regex(x.artifact_lacks));
  r.outcome = outcome_for(variant, matches && lacks);
  r.detail = x.artifact +
             (matches ? " contains /" + x.artifact_matches + "/" : " lacks /" + x.artifact_matches + "/") +
             (x.artifact_lacks.empty() ? ""
              : lacks                  ? ", no /" + x.artifact_lacks + "/"
                                       : ", but has /" + x.artifact_lacks + "/");
  return r;
}

RunResult run_harness(const Manifest& m, const std::string& mode, const std::string& variant,
                      const Expectation& x, const Environment& env) {
  RunResult r{m.id, mode, variant, "", "", 0};
  if (mode == "gpu") {
    if (auto reason = gpu_skip_reason(m, env)) return skipped(m, mode, variant, *reason);
  }
  std::string path = binary(env, m, variant, mode == "gpu" ? "gpu" : "host");
  if (!std::filesystem::exists(path)) {
    bool needs_cuda = mode == "gpu" || m.needs_cuda_toolkit;
    if (needs_cuda && !env.have_cuda)
      return skipped(m, mode, variant, "not built: no CUDA Toolkit when configured");
    return {m.id, mode, variant, outcome_for(variant, false), "harness not built: " + path, 0};
  }
  auto p = run_process({path}, m.timeout_s);
  r.seconds = p.seconds;
  r.detail = harness_detail(p.output);
  if (p.timed_out) {
    r.outcome = outcome_for(variant, false);
    r.detail = "killed after " + std::to_string(m.timeout_s) + " s (the harness should bound its own waits)";
  } else if (p.exit_code == kHarnessSkipped) {
    r.outcome = "skipped";
  } else if (p.exit_code == kHarnessSymptom || p.exit_code == kHarnessCorrect) {
    bool symptom = p.exit_code == kHarnessSymptom;
    r.outcome = outcome_for(variant, symptom == (x.expect == "symptom"));
  } else {
    r.outcome = outcome_for(variant, false);
    r.detail = "harness error (exit " + std::to_string(p.exit_code) + "): " + r.detail;
  }
  return r;
}

}  // namespace

std::optional<std::string> gpu_skip_reason(const Manifest& m, const Environment& env) {
  if (!env.gpu) return "no GPU on this machine";
  char reason[80];
  if (env.gpu->compute_capability + 1e-9 < m.min_compute_capability) {
    std::snprintf(reason, sizeof reason, "compute capability %.1f < required %.1f",
                  env.gpu->compute_capability, m.min_compute_capability);
    return reason;
  }
  if (m.max_compute_capability && env.gpu->compute_capability > *m.max_compute_capability + 1e-9) {
    std::snprintf(reason, sizeof reason, "compute capability %.1f has the feature (max %.1f)",
                  env.gpu->compute_capability, *m.max_compute_capability);
    return reason;
  }
  return std::nullopt;
}

std::vector<std::string> resolve_modes(const std::string& mode, const Environment& env) {
  if (mode == "auto") {
    std::vector<std::string> modes{"build", "host"};
    if (env.gpu) modes.push_back("gpu");
    return modes;
  }
  if (mode != "build" && mode != "host" && mode != "gpu") {
    throw Error("unknown mode '" + mode + "' (use auto, build, host or gpu)");
  }
  return {mode};
}

std::vector<std::pair<std::string, std::string>> planned_runs(const Manifest& m,
                                                              const std::vector<std::string>& modes) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& mode : modes) {
    auto it = m.modes.find(mode);
    if (it == m.modes.end()) continue;
    for (const auto& variant : {"buggy", "fixed"}) {
      if (it->second.count(variant)) out.push_back({mode, variant});
    }
  }
  return out;
}

RunResult run_variant(const Manifest& m, const std::string& mode, const std::string& variant,
                      const Environment& env) {
  const Expectation& x = m.modes.at(mode).at(variant);
  return mode == "build" ? run_build(m, variant, x, env) : run_harness(m, mode, variant, x, env);
}

bool is_failure(const std::string& outcome) { return outcome == "fail" || outcome == "not-reproduced"; }

}  // namespace faultline::reproducers
