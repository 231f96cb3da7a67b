#include "reproducers/runner.hpp"

#include <fcntl.h>
#include <re2/re2.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.hpp"
#include "common/text_file.hpp"
#include "reproducers/harness_output.hpp"
#include "reproducers/process.hpp"

namespace faultline::reproducers {

namespace {

constexpr int kHarnessCorrect = 0;
constexpr int kHarnessSymptom = 10;
constexpr int kHarnessSkipped = 77;
constexpr int kBuildTimeout = 600;

RunResult result(const Manifest& m, const std::string& mode, const std::string& variant,
                 const Environment& env) {
  RunResult r;
  r.id = m.id;
  r.mode = mode;
  r.variant = variant;
  r.cuda_toolkit = env.cuda_toolkit.empty() ? "none" : env.cuda_toolkit;
  r.node = env.node;
  r.compute_capability = compute_capability_text(env);
  if (env.gpu) {
    r.device = env.gpu->name;
    r.driver = env.gpu->driver.empty() ? "none" : env.gpu->driver;
  }
  return r;
}

RunResult skipped(RunResult r, const std::string& reason) {
  r.outcome = "skipped";
  r.detail = reason;
  return r;
}

// The outcome of a run whose result did (or did not) match the expectation.
std::string outcome_for(const std::string& variant, const Expectation& x, bool as_expected) {
  if (as_expected && !x.modeled.empty()) return "modeled";
  if (variant == "buggy") return as_expected ? "reproduced" : "not-reproduced";
  return as_expected ? "pass" : "fail";
}

// The whole line of `text` on which `pattern` first matches, or "" when it does not.
std::string first_matching_line(const std::string& text, const Pattern& pattern) {
  re2::StringPiece match;
  if (!pattern.re || !pattern.re->Match(text, 0, text.size(), RE2::UNANCHORED, &match, 1)) return "";
  size_t at = static_cast<size_t>(match.data() - text.data());
  size_t begin = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  size_t end = text.find('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return bounded_text(text.substr(begin, (end == std::string::npos ? text.size() : end) - begin),
                      kDetailLimit);
}

// Runs cmake --build holding an exclusive lock on the build tree: Slurm array tasks (and suites started side
// by side) share one tree, and two Ninja processes in one tree corrupt its logs.
ProcessResult build_exclusively(const Environment& env, const std::vector<std::string>& argv) {
  std::string lock_path = env.build_dir + "/.faultline-build.lock";
  int fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(lock_path + ": cannot open the build lock: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { close(fd); }  // closing releases the lock
  } closer{fd};
  while (flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) throw Error(lock_path + ": cannot lock the build tree: " + std::strerror(errno));
  }
  return run_process(argv, kBuildTimeout);
}

RunResult run_build(const Manifest& m, const std::string& variant, const Expectation& x,
                    const Environment& env) {
  RunResult r = result(m, "build", variant, env);
  if (!std::filesystem::exists(env.build_dir + "/CMakeCache.txt")) {
    return skipped(r, "no CMake build tree in " + env.build_dir +
                          " (prebuilt harnesses): build mode runs where the project is built");
  }
  if (m.needs_cuda_toolkit && !env.have_cuda) return skipped(r, "no nvcc: install the CUDA Toolkit");
  if (x.expect == "fails") {
    auto p = build_exclusively(env, {"cmake", "--build", env.build_dir, "--target", x.target});
    r.seconds = p.seconds;
    std::string line = first_matching_line(p.output, x.message);
    bool failed_as_expected = p.exit_code != 0 && !line.empty();
    r.outcome = outcome_for(variant, x, failed_as_expected);
    r.detail = failed_as_expected ? "fails to build as expected: " + line
               : p.exit_code == 0
                   ? "builds, but it should fail with /" + x.message.text + "/"
                   : "fails to build, but without /" + x.message.text + "/: " + harness_detail(p);
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
  if (targets.empty()) return skipped(r, "nothing to build here without nvcc");
  std::vector<std::string> argv{"cmake", "--build", env.build_dir, "--target"};
  argv.insert(argv.end(), targets.begin(), targets.end());
  auto p = build_exclusively(env, argv);
  r.seconds = p.seconds;
  if (p.exit_code != 0) {
    r.outcome = outcome_for(variant, x, false);
    r.detail = "does not build: " + harness_detail(p);
    return r;
  }
  if (x.artifact.empty()) {
    // Compiling shows nothing about behaviour: `built`, never a pass or a reproduction.
    r.outcome = "built";
    r.detail = "built " + std::to_string(targets.size()) + " target(s)";
    return r;
  }
  // The compiled artifact is inspected: what the compiler produced could have come out either way.
  std::string artifact = env.build_dir + "/" + x.artifact;
  if (!std::filesystem::exists(artifact)) {
    r.outcome = outcome_for(variant, x, false);
    r.detail = "built, but " + x.artifact + " was not produced";
    return r;
  }
  std::string text;
  try {
    text = common::read_text_file(artifact);
  } catch (const Error& e) {
    r.outcome = outcome_for(variant, x, false);
    r.detail = e.what();
    return r;
  }
  bool matches = pattern_found(x.artifact_matches, text);
  bool lacks = x.artifact_lacks.empty() || !pattern_found(x.artifact_lacks, text);
  r.outcome = outcome_for(variant, x, matches && lacks);
  r.detail =
      x.artifact +
      (matches ? " contains /" + x.artifact_matches.text + "/" : " lacks /" + x.artifact_matches.text + "/") +
      (x.artifact_lacks.empty() ? ""
       : lacks                  ? ", no /" + x.artifact_lacks.text + "/"
                                : ", but has /" + x.artifact_lacks.text + "/");
  return r;
}

RunResult run_harness(const Manifest& m, const std::string& mode, const std::string& variant,
                      const Expectation& x, const Environment& env) {
  RunResult r = result(m, mode, variant, env);
  if (mode == "gpu") {
    if (auto reason = gpu_skip_reason(m, env)) return skipped(r, *reason);
  }
  std::string path = harness_path(env, m, variant, mode == "gpu" ? "gpu" : "host");
  if (!std::filesystem::exists(path)) {
    bool needs_cuda = mode == "gpu" || m.needs_cuda_toolkit;
    if (needs_cuda && !env.have_cuda) return skipped(r, "not built: no CUDA Toolkit when configured");
    r.outcome = outcome_for(variant, x, false);
    r.detail = "harness not built: " + path;
    return r;
  }
  auto p = run_process({path}, m.timeout_s);
  r.seconds = p.seconds;
  const HarnessVerdict said = harness_verdict(p);
  r.detail = said.detail;
  if (p.timed_out) {
    r.outcome = outcome_for(variant, x, false);
    r.detail = "killed after " + std::to_string(m.timeout_s) + " s (the harness should bound its own waits)";
  } else if (p.exit_code == kHarnessSkipped) {
    r.outcome = "skipped";
    r.skipped_by_harness = true;
    if (r.detail.empty()) r.detail = "the harness skipped itself and gave no reason";
  } else if (p.exit_code == kHarnessSymptom || p.exit_code == kHarnessCorrect) {
    const bool symptom = p.exit_code == kHarnessSymptom;
    if (said.symptom == symptom) {
      r.outcome = outcome_for(variant, x, symptom == (x.expect == "symptom"));
    } else {  // the exit status and the verdict line disagree, or there is no verdict line
      r.outcome = outcome_for(variant, x, false);
      r.detail = "harness error (exit " + std::to_string(p.exit_code) + ", " +
                 (said.symptom ? std::string("but its verdict line says symptom: ") +
                                     (*said.symptom ? "true" : "false")
                               : std::string("without a verdict line")) +
                 "): " + r.detail;
    }
  } else {
    r.outcome = outcome_for(variant, x, false);
    std::string how = !p.status_lost.empty() ? p.status_lost
                      : p.signal != 0        ? "killed by signal " + std::to_string(p.signal)
                                             : "exit " + std::to_string(p.exit_code);
    r.detail = "harness error (" + how + "): " + r.detail;
  }
  return r;
}

}  // namespace

std::string harness_path(const Environment& env, const Manifest& m, const std::string& variant,
                         const std::string& kind) {
  return env.build_dir + "/kernels/" + m.id + "/repro_" + m.id + "_" + variant + "_" + kind;
}

std::string run_name(const std::string& id, const std::string& mode, const std::string& variant) {
  return id + " [" + mode + "/" + variant + "]";
}

bool as_expected(const std::string& outcome) {
  return outcome == "reproduced" || outcome == "pass" || outcome == "built" || outcome == "modeled";
}

std::string stability_status(int as_expected_runs, int runs) {
  if (runs == 0) return "";
  if (as_expected_runs == runs) return "reproducible";
  return as_expected_runs == 0 ? "unreproducible" : "flaky";
}

const std::vector<std::string>& outcome_vocabulary() {
  static const std::vector<std::string> words{"reproduced",     "pass", "built",   "modeled",
                                              "not-reproduced", "fail", "skipped", "lost"};
  return words;
}

std::optional<std::string> gpu_skip_reason(const Manifest& m, const Environment& env) {
  if (!env.gpu) return kNoGpuHere;
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
  RunResult r = mode == "build" ? run_build(m, variant, x, env) : run_harness(m, mode, variant, x, env);
  if (r.outcome != "skipped") r.stability = {1, as_expected(r.outcome) ? 1 : 0, ""};
  r.stability.status = stability_status(r.stability.as_expected, r.stability.runs);
  return r;
}

RunResult run_repeated(const Manifest& m, const std::string& mode, const std::string& variant,
                       const Environment& env, int repeat) {
  if (repeat < 1) throw Error("--repeat must be at least 1, not " + std::to_string(repeat));
  RunResult first = run_variant(m, mode, variant, env);
  if (mode == "build" || repeat == 1 || first.outcome == "skipped") return first;
  std::optional<RunResult> good, bad;
  (as_expected(first.outcome) ? good : bad) = first;
  Stability s = first.stability;
  double seconds = first.seconds;
  for (int i = 1; i < repeat; ++i) {
    RunResult r = run_variant(m, mode, variant, env);
    seconds += r.seconds;
    // The first run ran, so the machine can run it: a later run that skips itself did not behave.
    if (r.outcome == "skipped") {
      r.outcome = outcome_for(variant, m.modes.at(mode).at(variant), false);
      r.detail = "run " + std::to_string(i + 1) + " of " + std::to_string(repeat) +
                 " skipped itself after the first ran: " + r.detail;
      r.skipped_by_harness = false;  // no skip now: a run that did not behave
    }
    ++s.runs;
    s.as_expected += as_expected(r.outcome);
    auto& slot = as_expected(r.outcome) ? good : bad;
    if (!slot) slot = std::move(r);
  }
  // A symptom seen once is a reproduction (a race need not lose every time); a fix must hold every time.
  RunResult out = variant == "buggy" ? (good ? *good : *bad) : (bad ? *bad : *good);
  s.status = stability_status(s.as_expected, s.runs);
  out.stability = s;
  out.seconds = seconds;
  return out;
}

bool is_failure(const std::string& outcome) {
  return outcome == "fail" || outcome == "not-reproduced" || outcome == "lost";
}

}  // namespace faultline::reproducers
