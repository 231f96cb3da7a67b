// Writes a report directory: every table in the chosen formats, findings, and index.html.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "reports/report_data.hpp"

namespace faultline::reports {

struct ReportSummary {
  int cases = 0;                         // issues with a final manual label
  int cases_with_source_reproducer = 0;  // a reproducer was modeled on the case
  // Of the root causes the cases carry, those with a reproducer whose buggy variant's latest suite outcome is
  // `reproduced` (modeled on a case or not): what the suite has shown for the taxonomy, not for the cases.
  int root_causes_labeled = 0;
  int root_causes_reproduced = 0;
  int predicted = 0;  // unlabeled candidates with a prediction (--with-predictions), never in `cases`
  std::vector<std::string> files;
  std::vector<std::string> findings;
};

// formats ⊆ {md, csv, tex, json, html}; throws faultline::Error for another name or an unwritable directory.
ReportSummary write_report(const ReportData& data, const std::string& out_dir,
                           const std::set<std::string>& formats);

}  // namespace faultline::reports
