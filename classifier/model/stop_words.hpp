// English function words ("the", "was", "because"): in a document they say little about which failure a
// report shows, and a fastText model averages every word it reads, so they dilute the words that do.
#pragma once

#include <string_view>

namespace faultline::model {

// Whether `token`, as normalize_for_fasttext writes it (lower case, Snowball-stemmed, a contraction split
// at its apostrophe), is one of the Snowball project's English stop words.
bool is_english_stop_word(std::string_view token);

}  // namespace faultline::model
