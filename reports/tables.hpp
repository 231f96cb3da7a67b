// The report's tables, built from ReportData: the study's Tables I–III, two cross-tabs it does not print,
// each category's share beside the study's published share, and the reproducers behind each root cause.
#pragma once

#include <vector>

#include "reports/report_data.hpp"
#include "reports/table.hpp"

namespace faultline::reports {

Table funnel_table(const ReportData& data);
Table symptom_table(const ReportData& data);
Table root_cause_table(const ReportData& data);
Table symptom_by_root_cause_table(const ReportData& data);
Table root_cause_by_repository_table(const ReportData& data);
Table study_comparison_table(const ReportData& data);
// Per root cause: its cases, how many have a reproducer modeled on them and how many only a related one,
// which reproducers exercise it, and how many of their fixed variants pass in the latest suite results.
Table reproducer_coverage_table(const ReportData& data);

// Tables II and III over the predicted cases, with ids ending in "_predicted" and titles that say they are
// predictions; none when the report has no predictions.
std::vector<Table> prediction_tables(const ReportData& data);

// The study's tables over the manual labels, the reproducer × GPU architecture table when there is one,
// then the prediction tables, then the classifier's evaluation when the report was given one.
std::vector<Table> all_tables(const ReportData& data);

// The ids of the tables all_tables holds only sometimes (the architecture, prediction and evaluation
// tables): a report that does not hold one removes the file an earlier report wrote of it.
const std::vector<std::string>& optional_table_ids();

}  // namespace faultline::reports
