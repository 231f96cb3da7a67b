// The classifier's evaluation as report tables, from what `faultline eval --json` wrote: its figures
// against the final manual labels (cross-validation and time split, with the baselines), and what it
// achieves when it labels only above a confidence threshold.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "reports/table.hpp"

namespace faultline::reports {

// Throws faultline::Error naming `origin` when `evaluation` lacks what eval --json writes. `human_kappa`,
// the raters' agreement from the audit, is named in the note as the reference a classifier is read against.
std::vector<Table> classifier_tables(const nlohmann::json& evaluation, std::optional<double> human_kappa,
                                     const std::string& origin);

}  // namespace faultline::reports
