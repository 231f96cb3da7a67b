// The text the classifier sees: one document per issue, and its normalised form for fastText.
#pragma once

#include <string>

#include "datasets/store/issue_record.hpp"

namespace faultline::model {

// Title, body, environment, error lines and discussion, in that order.
std::string document_text(const datasets::IssueRecord& issue);

// Lower-cased tokens separated by single spaces, with volatile details masked so that they do not
// become vocabulary: hex numbers → <hex>, file paths → <path>, other numbers → <num>, inline code
// spans → <code> plus their identifiers. English words are reduced to their stems (english_stem);
// leading underscores are dropped, so no token of an issue reads as a fastText label or as one of the
// classifier's own tokens. Error lines keep their words (they carry the signatures).
std::string normalize_for_fasttext(const std::string& text);

}  // namespace faultline::model
