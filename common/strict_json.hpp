// Parsing JSON from outside (a snapshot record, an issue piped to triage) so that what faultline reads is
// what any reader of the text would read.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace faultline::common {

// `text` parsed as JSON; a faultline::Error naming `where` when it is not JSON, or when one object holds a
// key twice: readers disagree on which value counts (nlohmann keeps the last, others the first), so a record
// could show a person one title and faultline another.
nlohmann::json parse_json_strictly(const std::string& text, const std::string& where);
// How much of a key from such a text an error quotes (one_line_cut): a key may be as long as its line.
constexpr size_t kShownKeyBytes = 80;

// The file at `path` read and parsed as parse_json_strictly does, errors naming the path.
nlohmann::json parse_json_file_strictly(const std::string& path);

}  // namespace faultline::common
