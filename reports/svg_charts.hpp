// Self-contained SVG charts (no scripts, no external assets), so the HTML report opens anywhere.
// Every mark carries a class the tests count and a <title> a reader sees on hover.
#pragma once

#include <string>

#include "reports/report_data.hpp"

namespace faultline::reports {

// One bar per repository, one segment (class "bar") per non-empty symptom.
std::string symptom_stack_chart(const ReportData& data);
// 15 root causes × 6 symptoms, one cell (class "cell") each, shaded by count.
std::string heat_map_chart(const ReportData& data);
// Raw → candidate → final totals, one bar (class "funnel-bar") each.
std::string funnel_chart(const ReportData& data);
// For all 21 categories, this dataset's share and the study's, two bars (class "share-bar") each.
std::string share_chart(const ReportData& data);

}  // namespace faultline::reports
