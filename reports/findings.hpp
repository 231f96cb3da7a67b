// The findings that follow from the numbers, each stated with the numbers, computed from the data.
#pragma once

#include <string>
#include <vector>

#include "reports/report_data.hpp"

namespace faultline::reports {

std::vector<std::string> compute_findings(const ReportData& data);

}  // namespace faultline::reports
