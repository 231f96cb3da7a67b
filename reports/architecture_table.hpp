// The reproducers' GPU outcomes side by side per GPU architecture (compute capability), for a suite run on
// several GPU generations (Slurm arrays with one --constraint each).
#pragma once

#include <optional>

#include "reports/report_data.hpp"
#include "reports/tables.hpp"

namespace faultline::reports {

// One row per reproducer with a GPU result, one column per compute capability, each cell "buggy / fixed"
// (the latest outcome of each variant there, "-" where it did not run); none unless results from at least
// two architectures are in the store.
std::optional<Table> architecture_table(const ReportData& data);

}  // namespace faultline::reports
