// The benchmark table: rendered from the figures the bench measured (bench.json), never typed by hand. The
// README holds it between two marker lines; `./run bench` splices a new one in, and a test checks that the
// README's table is what the committed figures render to.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace faultline::bench {

inline constexpr const char* kTableBegin = "<!-- bench-table:begin (./run bench writes this table) -->";
inline constexpr const char* kTableEnd = "<!-- bench-table:end -->";

// A Markdown table, one row per measure: value, baseline or budget measured or stated in the same run, and
// the ratio between them. Throws faultline::Error naming the first figure missing from `results`.
std::string render_table(const nlohmann::json& results);

// The text between the markers of `readme` (without the marker lines); throws when a marker is missing.
std::string table_in(const std::string& readme);
// `readme` with the text between its markers replaced by `table`.
std::string with_table(const std::string& readme, const std::string& table);

}  // namespace faultline::bench
