// The ten-line summary that `./run demo` prints, computed from the JSON each pipeline step wrote.
#pragma once

#include <string>
#include <vector>

namespace faultline::reports {

// Reads import.json, screen.json, rater_a.json, rater_b.json, adjudicate.json, train.json, classify.json,
// eval.json, suite.json and report.json from `work_dir`; throws faultline::Error naming a missing or
// malformed file.
std::vector<std::string> demo_summary(const std::string& work_dir);

}  // namespace faultline::reports
