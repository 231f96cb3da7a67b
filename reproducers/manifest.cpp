#include "reproducers/manifest.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "common/edit_distance.hpp"
#include "common/ascii_case.hpp"
#include "common/error.hpp"
#include "common/issue_url.hpp"
#include "common/repository_name.hpp"
#include "common/strict_json.hpp"
#include "common/text_file.hpp"
#include "reproducers/process.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::reproducers {

namespace {

// RE2 runs in time linear in the text and without recursion, so a harness printing megabytes cannot
// exhaust the stack the way std::regex did.
Pattern compile(const nlohmann::json& e, const char* field, const std::string& where) {
  Pattern p;
  p.text = e.value(field, "");
  if (p.text.empty()) return p;
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const RE2>(p.text, options);
  if (!re->ok())
    throw Error(where + ": " + field + " /" + p.text + "/ is not a valid pattern: " + re->error());
  p.re = std::move(re);
  return p;
}

// A misspelt key ("artifact_match") would otherwise be ignored and its check silently not made.
void reject_unknown_keys(const nlohmann::json& object, std::initializer_list<const char*> known,
                         const std::string& where) {
  if (!object.is_object()) throw Error(where + " must be a JSON object");
  for (const auto& [key, value] : object.items()) {
    if (std::find_if(known.begin(), known.end(), [&](const char* k) { return key == k; }) == known.end())
      throw Error(where + ": unknown key '" + key + "'");
  }
}

Expectation parse_expectation(const nlohmann::json& e, const std::string& mode, const std::string& where) {
  reject_unknown_keys(
      e, {"expect", "message", "target", "artifact", "artifact_matches", "artifact_lacks", "modeled"}, where);
  Expectation x;
  x.expect = e.at("expect").get<std::string>();
  x.message = compile(e, "message", where);
  x.target = e.value("target", "");
  x.artifact = e.value("artifact", "");
  x.artifact_matches = compile(e, "artifact_matches", where);
  x.artifact_lacks = compile(e, "artifact_lacks", where);
  x.modeled = e.value("modeled", "");
  if (e.contains("modeled") && x.modeled.empty())
    throw Error(where + ": \"modeled\" must say why this run cannot observe the symptom");
  bool valid = mode == "build" ? (x.expect == "builds" ||
                                  (x.expect == "fails" && !x.target.empty() && !x.message.empty()))
                               : (x.expect == "symptom" || x.expect == "correct");
  if (!valid) throw Error(where + " has an invalid expectation '" + x.expect + "'");
  // Only a compiled artifact is inspected, and only against a pattern: without one, any file would match.
  bool patterns = !x.artifact_matches.empty() || !x.artifact_lacks.empty();
  if (!x.artifact.empty() && (mode != "build" || x.expect != "builds"))
    throw Error(where + ": \"artifact\" is inspected only in build mode with \"expect\": \"builds\"");
  if (!x.artifact.empty() && !patterns)
    throw Error(where +
                ": \"artifact\" needs \"artifact_matches\" or \"artifact_lacks\" to check it against");
  if (x.artifact.empty() && patterns)
    throw Error(where + ": \"artifact_matches\"/\"artifact_lacks\" need an \"artifact\" to inspect");
  return x;
}

// "9.0", "12.1": a compute capability as NVIDIA writes it (a number that is not one would make the GPU
// check always or never run).
double compute_capability(const nlohmann::json& requirements, const char* key, const std::string& path) {
  const std::string text = requirements.at(key).get<std::string>();
  static const RE2 form(R"([1-9][0-9]?\.[0-9])");
  if (!RE2::FullMatch(text, form))
    throw Error(path + ": requirements: " + key + " '" + text + "' is not a compute capability like \"9.0\"");
  return std::stod(text);
}

// A build target or artifact path runs or reads something of the build tree, and nothing else: a target is
// one the kernels' CMake files define for reproducers (repro_…; not CMake's own, such as clean, nor a path),
// an artifact a relative path that stays inside.
void require_inside_build(const Expectation& x, const std::string& where) {
  static const RE2 target_form(R"(repro_[A-Za-z0-9_.-]+)");
  if (!x.target.empty() && !RE2::FullMatch(x.target, target_form))
    throw Error(where + ": target '" + x.target +
                "' is not a reproducer's target (repro_ and letters, digits, '_', '.', '-')");
  if (x.artifact.empty()) return;
  const std::filesystem::path artifact(x.artifact);
  const bool leaves = artifact.is_absolute() || std::any_of(artifact.begin(), artifact.end(),
                                                            [](const auto& part) { return part == ".."; });
  if (leaves) throw Error(where + ": artifact '" + x.artifact + "' must be a path inside the build tree");
}

}  // namespace

Manifest parse_manifest(const std::string& text, const std::string& path) {
  Manifest m;
  const auto& tax = taxonomy::Taxonomy::builtin();
  try {
    const nlohmann::json j = common::parse_json_strictly(text, path);
    reject_unknown_keys(j,
                        {"id", "title", "symptom", "root_cause", "issues", "no_single_issue", "fix",
                         "mechanism", "requirements", "modes", "timeout_s"},
                        path);
    for (const char* field : {"id", "title", "symptom", "root_cause", "issues", "mechanism", "requirements", "modes"}) {
      if (!j.contains(field)) throw Error(path + ": the field \"" + field + "\" is missing");
    }
    m.id = j.at("id").get<std::string>();
    m.title = j.at("title").get<std::string>();
    m.symptom = j.at("symptom").get<std::string>();
    m.root_cause = j.at("root_cause").get<std::string>();
    m.issues = j.at("issues").get<std::vector<std::string>>();
    m.no_single_issue = j.value("no_single_issue", "");
    m.fix = j.value("fix", "");
    m.mechanism = j.at("mechanism").get<std::string>();
    const auto& req = j.at("requirements");
    reject_unknown_keys(req, {"min_compute_capability", "max_compute_capability", "cuda_toolkit"},
                        path + ": requirements");
    m.min_compute_capability = compute_capability(req, "min_compute_capability", path);
    if (req.contains("max_compute_capability")) {
      m.max_compute_capability = compute_capability(req, "max_compute_capability", path);
      if (*m.max_compute_capability < m.min_compute_capability)
        throw Error(path + ": requirements: max_compute_capability is under min_compute_capability");
    }
    m.needs_cuda_toolkit = req.value("cuda_toolkit", false);
    if (j.contains("timeout_s")) {
      const auto& t = j.at("timeout_s");
      // Read as a double: 60.0 is whole too (some JSON writers give every number a fraction), and a number
      // past int64's range cannot wrap.
      if (!t.is_number() || t.get<double>() != std::floor(t.get<double>()))
        throw Error(path + ": timeout_s must be a whole number of seconds, not " + t.dump());
      const double seconds = t.get<double>();
      if (seconds < 1 || seconds > kMaxTimeout)
        throw Error(path + ": timeout_s must be 1 to " + std::to_string(kMaxTimeout) + " seconds, not " +
                    t.dump());
      m.timeout_s = static_cast<int>(seconds);
    }
    for (const auto& [mode, variants] : j.at("modes").items()) {
      if (mode != "build" && mode != "host" && mode != "gpu")
        throw Error(path + ": unknown mode '" + mode + "'");
      if (!variants.is_object() || variants.empty())
        throw Error(path + ": mode '" + mode + "' has no variant to run");
      for (const auto& [variant, e] : variants.items()) {
        if (variant != "buggy" && variant != "fixed")
          throw Error(path + ": unknown variant '" + variant + "'");
        m.modes[mode][variant] = parse_expectation(e, mode, path + ": " + mode + "/" + variant);
        require_inside_build(m.modes[mode][variant], path + ": " + mode + "/" + variant);
      }
    }
  } catch (const nlohmann::json::exception& e) {
    // The library's words without its "[json.exception.out_of_range.403] " tag: "key 'expect' not found".
    const std::string what = e.what();
    const size_t tag_end = what.find("] ");
    const std::string said = tag_end == std::string::npos ? what : what.substr(tag_end + 2);
    throw Error(path + ": " + (e.id == 403 ? "a required field is missing: " : "a field is not as expected: ") + said);
  }
  // The id names files, folders and build targets, and is printed in every line of the suite.
  static const RE2 id_form(R"([a-z0-9][a-z0-9-]{0,63})");
  if (!RE2::FullMatch(m.id, id_form))
    throw Error(path + ": id '" + m.id + "' is not 1 to 64 lower-case letters, digits and '-'");
  if (m.modes.empty()) throw Error(path + ": no mode to run (\"modes\" is empty)");
  std::set<std::string> sources;  // OWNER/NAME#N, the name folded as GitHub compares it
  for (const auto& url : m.issues) {
    std::string problem;
    const auto read = common::read_issue_link(url, &problem);  // as the report reads it
    if (!read) throw Error(path + ": issues: '" + url + "' is not an issue's page (" + problem + ")");
    if (read->pull_request)
      throw Error(path + ": issues: '" + url + "' is a pull request's page; name the issue it fixes");
    if (!sources.insert(common::folded_repository_name(read->repo) + "#" + std::string(read->number)).second)
      throw Error(path + ": issues: '" + url + "' names an issue listed before");
  }
  if (!tax.is_symptom(m.symptom)) throw Error(path + ": unknown symptom '" + m.symptom + "'");
  if (!tax.is_root_cause(m.root_cause)) throw Error(path + ": unknown root cause '" + m.root_cause + "'");
  if (m.issues.empty() == m.no_single_issue.empty())
    throw Error(path +
                (m.issues.empty()
                     ? ": no source issue: list one in \"issues\", or say in \"no_single_issue\" which "
                       "documented mechanism the case models"
                     : ": \"issues\" and \"no_single_issue\" contradict each other"));
  std::string stem = std::filesystem::path(path).stem().string();
  if (stem != m.id) throw Error(path + ": id '" + m.id + "' differs from the file name");
  return m;
}

std::vector<Manifest> load_manifests(const std::string& directory) {
  std::vector<Manifest> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    if (entry.path().extension() != ".json") continue;
    // A link to a device or a FIFO would be read until memory runs out, or forever.
    std::error_code type_error;
    if (!entry.is_regular_file(type_error))
      throw Error(entry.path().string() + ": not a regular file; a manifest is a JSON file");
    // A manifest is a few kilobytes; a huge file in the folder is refused before it fills the memory.
    out.push_back(parse_manifest(common::read_text_file_at_most(entry.path().string(), kLargestManifestBytes),
                                 entry.path().string()));
  }
  if (ec) throw Error(directory + ": cannot list reproducer manifests: " + ec.message());
  // An empty or mistyped --manifests folder would make a suite of nothing pass.
  if (out.empty())
    throw Error(directory +
                ": no reproducer manifests (*.json) here (check --manifests where a verb takes it, or the " +
                "installed share/faultline/reproducers)");
  std::sort(out.begin(), out.end(), [](const Manifest& a, const Manifest& b) { return a.id < b.id; });
  return out;
}

const Manifest& find_manifest(const std::vector<Manifest>& all, const std::string& id) {
  for (const auto& m : all) {
    if (m.id == id) return m;
  }
  std::vector<std::string> ids;
  for (const auto& m : all) ids.push_back(m.id);
  // Ids are lower case: a word typed in capitals is matched as the same word.
  const auto nearest = common::nearest_word(common::ascii_lowercase(id), ids);
  throw Error("no reproducer '" + id + "'" +
              (nearest ? "; did you mean '" + *nearest + "'?" : std::string()) +
              " (see 'faultline repro list')");
}

bool pattern_found(const Pattern& pattern, const std::string& text) {
  return !pattern.re || RE2::PartialMatch(text, *pattern.re);
}

}  // namespace faultline::reproducers
