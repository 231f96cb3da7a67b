// English words reduced to their Snowball stems ("upgrading", "upgraded" → "upgrad"), so that the few
// hundred labeled issues teach one word instead of each inflection apart.
#pragma once

#include <string>
#include <string_view>

namespace faultline::model {

// The stem of an all-lowercase ASCII word of at most 40 letters; anything else (identifiers with digits,
// dots or underscores, non-ASCII text) is not an English word and comes back unchanged, as `word` itself.
// A stem lives in the calling thread's memo: use it before the thread's next call, which may empty the memo.
// Thread-safe: each thread has its own Snowball stemmer and memo.
std::string_view english_stem(std::string_view word);

}  // namespace faultline::model
