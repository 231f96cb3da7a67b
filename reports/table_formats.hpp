// One table, four formats. For people, through display_grid(): Markdown, and LaTeX (booktabs) that fits an
// article page. For programs, the table as it is: tidy CSV (column ids as header, counts as integers,
// shares as fractions, a row_kind column) and JSON with the same rows keyed by column id.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "reports/tables.hpp"

namespace faultline::reports {

std::string to_markdown(const Table& t);
std::string to_csv(const Table& t);
std::string to_latex(const Table& t);
nlohmann::json to_json(const Table& t);

std::string latex_escape(const std::string& text);
std::string html_escape(const std::string& text);

}  // namespace faultline::reports
