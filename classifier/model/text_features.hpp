// The text the classifier sees: one document per issue, and its normalised form for fastText.
#pragma once

#include <optional>
#include <string>

#include "datasets/store/issue_record.hpp"

namespace faultline::model {

// The form of the documents the classifier reads (extract_features and everything it calls). A model
// records the form it was trained on and is refused under another: raise this with any change that alters
// a document, as the words a model knows would no longer be the words it is shown.
// 1: the first generation; 2: the discussion twice, Snowball stems, leading underscores dropped; 3: no
// environment section; 4: the symptom's fastText model reads the discussion once (IssueFeatures::
// discussion_again; the documents are as in 3, what a model reads of them is not); 5: fields are read up
// to kBytesReadPerField bytes (the documents of issues within it are as in 4); 6: the repository token in
// lower case.
constexpr int kTextFeaturesVersion = 6;

// GitHub keeps an issue's body and each of its comments within 65,536 characters. The classifier reads at
// most 65,536 bytes (as many characters of ASCII text, fewer of other scripts) of the title, the body, the
// environment, the error lines together (each with its newline) and the discussion (which joins the
// comments), so that however long a record is, its classification reads a bounded text. The bundled issues
// are far within it (their longest field holds under 1,000 bytes).
constexpr size_t kBytesReadPerField = 65'536;

// The repository and the text fields of `issue`, each cut to kBytesReadPerField bytes with no UTF-8
// character split (error lines are kept whole while they fit, the one that crosses the limit is cut, and
// those after it dropped), the other fields left empty; nothing when every field is within the limit
// already, the usual case, so that no copy is made.
std::optional<datasets::IssueRecord> cut_to_what_is_read(const datasets::IssueRecord& issue);

// Title, body, environment, error lines and discussion, in that order, each part but the last ending a line.
std::string document_text(const datasets::IssueRecord& issue);
// document_text up to the discussion (each part ending a line), with room reserved for `room_after` more
// bytes.
std::string text_before_discussion(const datasets::IssueRecord& issue, size_t room_after = 0);

// Lower-cased tokens separated by single spaces, with volatile details masked so that they do not
// become vocabulary: hex numbers → <hex>, file paths → <path>, other numbers → <num>, inline code
// spans → <code> plus their identifiers. English words are reduced to their stems (english_stem);
// leading underscores are dropped, so no token of an issue reads as a fastText label or as one of the
// classifier's own tokens. Error lines keep their words (they carry the signatures).
std::string normalize_for_fasttext(const std::string& text);

// The same for a text that continues another: `in_code` says whether it begins inside an open backtick
// span and is left saying whether it ends inside one. normalize_for_fasttext(a + "\n" + b) is the two
// parts' results joined by a space (or whichever is not empty): the end of a part ends its last token, as
// a newline does.
std::string normalize_for_fasttext(const std::string& text, bool& in_code);

}  // namespace faultline::model
