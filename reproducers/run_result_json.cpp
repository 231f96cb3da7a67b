#include "reproducers/run_result_json.hpp"

#include <algorithm>

#include "common/json_fields.hpp"

namespace faultline::reproducers {

nlohmann::json run_result_json(const RunResult& r) {
  return {{"id", r.id},
          {"mode", r.mode},
          {"variant", r.variant},
          {"outcome", r.outcome},
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
  return r;
}

}  // namespace faultline::reproducers
