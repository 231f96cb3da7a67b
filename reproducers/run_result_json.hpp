// A run's result as JSON: what `--json` prints and what a Slurm task writes for `suite collect` to read.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "reproducers/runner.hpp"

namespace faultline::reproducers {

nlohmann::json run_result_json(const RunResult& r);

// Throws faultline::Error naming `where` and the field when `j` is not such an object.
RunResult run_result_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace faultline::reproducers
