// index.html: findings, charts, the tables and every case with its links, in one self-contained page.
#pragma once

#include <string>
#include <vector>

#include "common/piece_writer.hpp"
#include "reports/report_data.hpp"
#include "reports/tables.hpp"

namespace faultline::reports {

// The page in pieces, in order, to `write` (a large report's list of cases is never held whole).
void write_html(const ReportData& data, const std::vector<Table>& tables,
                const std::vector<std::string>& findings, const common::PieceWriter& write);
// The whole page as one string (tests; a small page).
std::string render_html(const ReportData& data, const std::vector<Table>& tables,
                        const std::vector<std::string>& findings);

}  // namespace faultline::reports
