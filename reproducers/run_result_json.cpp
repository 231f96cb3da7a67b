#include "reproducers/run_result_json.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/json_fields.hpp"

namespace faultline::reproducers {

namespace {

// What no run writes: a mode or variant there is none of, a buggy variant that "passed" or a fixed one
// that "reproduced", more runs as expected than runs, a status its counts do not give, or a GPU result
// that names no GPU. Results read back (a Slurm task's file) are held to it, so that a file edited or
// mixed up by hand is refused rather than counted.
void require_consistent(const RunResult& r, const std::string& where) {
  auto refuse = [&](const std::string& why) { throw Error(where + ": " + why + ", which no run writes"); };
  if (r.mode != "build" && r.mode != "host" && r.mode != "gpu") refuse("mode '" + r.mode + "'");
  if (r.variant != "buggy" && r.variant != "fixed") refuse("variant '" + r.variant + "'");
  const bool buggy_word = r.outcome == "reproduced" || r.outcome == "not-reproduced";
  const bool fixed_word = r.outcome == "pass" || r.outcome == "fail";
  if (r.outcome == "lost") refuse("outcome 'lost' (collect gives it to a shard whose results are missing)");
  if ((r.variant == "buggy" && fixed_word) || (r.variant == "fixed" && buggy_word))
    refuse("outcome '" + r.outcome + "' for a " + r.variant + " variant");
  const Stability& s = r.stability;
  if (s.runs < 0 || s.as_expected < 0 || s.as_expected > s.runs)
    refuse(std::to_string(s.as_expected) + " of " + std::to_string(s.runs) + " runs as expected");
  if (s.status != stability_status(s.as_expected, s.runs))
    refuse("stability '" + s.status + "' for " + std::to_string(s.as_expected) + " of " +
           std::to_string(s.runs) + " runs as expected");
  if ((r.outcome == "skipped") != (s.runs == 0))
    refuse("outcome '" + r.outcome + "' after " + std::to_string(s.runs) + " runs");
  if (r.outcome == "built" && r.mode != "build") refuse("outcome 'built' in " + r.mode + " mode");
  if (r.skipped_by_harness && r.outcome != "skipped")
    refuse("a harness's own skip with outcome '" + r.outcome + "'");
  // Over repeated runs a buggy variant is reproduced when its symptom showed at least once, and a fixed one
  // passes only when every run behaved (run_repeated): the outcome follows from the counts.
  if (r.outcome != "skipped") {
    const bool counts_give = r.variant == "buggy" ? s.as_expected > 0 : s.as_expected == s.runs;
    if (as_expected(r.outcome) != counts_give)
      refuse("outcome '" + r.outcome + "' for a " + r.variant + " variant with " +
             std::to_string(s.as_expected) + " of " + std::to_string(s.runs) + " runs as expected");
  }
  if (r.mode == "gpu" && r.outcome != "skipped" &&
      (r.device.empty() || r.device == "none" || r.compute_capability.empty() ||
       r.compute_capability == "none"))
    refuse("a GPU result on no GPU (device '" + r.device + "', compute capability '" + r.compute_capability +
           "')");
  if (!(r.seconds >= 0) || r.seconds > 1e9) refuse("seconds " + std::to_string(r.seconds));
}

}  // namespace

nlohmann::json run_result_json(const RunResult& r) {
  return {{"id", r.id},
          {"mode", r.mode},
          {"variant", r.variant},
          {"outcome", r.outcome},
          {"skipped_by_harness", r.skipped_by_harness},
          {"detail", r.detail},
          {"seconds", r.seconds},
          {"stability",
           {{"runs", r.stability.runs},
            {"as_expected", r.stability.as_expected},
            {"status", r.stability.status}}},
          {"cuda_toolkit", r.cuda_toolkit},
          {"driver", r.driver},
          {"compute_capability", r.compute_capability},
          {"node", r.node},
          {"device", r.device}};
}

RunResult run_result_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw Error(where + ": a result must be an object");
  RunResult r;
  r.id = common::json_string(j, "id", where);
  r.mode = common::json_string(j, "mode", where);
  r.variant = common::json_string(j, "variant", where);
  r.outcome = common::json_string(j, "outcome", where);
  const auto& words = outcome_vocabulary();
  if (std::find(words.begin(), words.end(), r.outcome) == words.end())
    throw Error(where + ": unknown outcome '" + r.outcome + "'");
  // Whether the harness skipped itself (a problem where the runner judged the device able: collect says it
  // as a local suite does); absent from the files of an earlier faultline, where it counts as not.
  if (j.contains("skipped_by_harness")) {
    if (!j.at("skipped_by_harness").is_boolean())
      throw Error(where + ": field 'skipped_by_harness' must be true or false");
    r.skipped_by_harness = j.at("skipped_by_harness").get<bool>();
  }
  r.detail = common::json_string(j, "detail", where);
  if (!j.contains("seconds") || !j.at("seconds").is_number())
    throw Error(where + ": field 'seconds' must be a number");
  r.seconds = j.at("seconds").get<double>();
  if (!j.contains("stability") || !j.at("stability").is_object())
    throw Error(where + ": field 'stability' must be an object");
  const auto& s = j.at("stability");
  r.stability = {static_cast<int>(common::json_integer(s, "runs", where)),
                 static_cast<int>(common::json_integer(s, "as_expected", where)),
                 common::json_string(s, "status", where)};
  r.cuda_toolkit = common::json_string(j, "cuda_toolkit", where);
  r.driver = common::json_string(j, "driver", where);
  r.compute_capability = common::json_string(j, "compute_capability", where);
  r.node = common::json_string(j, "node", where);
  r.device = common::json_string(j, "device", where);
  require_consistent(r, where);
  return r;
}

}  // namespace faultline::reproducers
