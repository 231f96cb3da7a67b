// English function words ("the", "was", "because"): in a document they say little about which failure a
// report shows, and a fastText model averages every word it reads, so they dilute the words that do.
#pragma once

#include <string_view>

namespace faultline::model {

// Whether `token`, as normalize_for_fasttext writes it (lower case, Snowball-stemmed, a contraction split
// at its apostrophe), is one of the Snowball project's English stop words. Tokens are matched, not words,
// so some go that are not function words where they stand: the pieces of contractions wherever they occur
// ("can", "won", "let", "s", "t", "m", "d", "re", "ll", "ve": a matrix's "M", Python's `re`), the other words
// of a stop word's stem ("others", "owned", "doing") and Python keywords in code ("if", "for", "in", "not").
// A contraction written with a typographic apostrophe (U+2019) is one token and stays.
bool is_english_stop_word(std::string_view token);

}  // namespace faultline::model
