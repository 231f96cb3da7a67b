// index.html: findings, charts, the tables and every case with its links, in one self-contained page.
#pragma once

#include <string>
#include <vector>

#include "reports/report_data.hpp"
#include "reports/tables.hpp"

namespace faultline::reports {

std::string render_html(const ReportData& data, const std::vector<Table>& tables,
                        const std::vector<std::string>& findings);

}  // namespace faultline::reports
