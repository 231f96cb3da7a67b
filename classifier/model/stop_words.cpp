#include "classifier/model/stop_words.hpp"

#include <functional>
#include <string>
#include <unordered_set>

#include "classifier/model/word_stemmer.hpp"

namespace faultline::model {

namespace {

// The English stop word list the Snowball project publishes beside its stemmer (snowballstem.org,
// algorithms/english/stop.txt), without the further common words it lists apart. Its contractions are
// written as the two pieces a document holds ("isn't" becomes "isn" and "t").
constexpr const char* kSnowballEnglishStopWords[] = {
    "i",       "me",         "my",       "myself",     "we",      "our",     "ours",   "ourselves", "you",
    "your",    "yours",      "yourself", "yourselves", "he",      "him",     "his",    "himself",   "she",
    "her",     "hers",       "herself",  "it",         "its",     "itself",  "they",   "them",      "their",
    "theirs",  "themselves", "what",     "which",      "who",     "whom",    "this",   "that",      "these",
    "those",   "am",         "is",       "are",        "was",     "were",    "be",     "been",      "being",
    "have",    "has",        "had",      "having",     "do",      "does",    "did",    "doing",     "would",
    "should",  "could",      "ought",    "m",          "re",      "s",       "ve",     "d",         "ll",
    "isn",     "t",          "aren",     "wasn",       "weren",   "hasn",    "haven",  "hadn",      "doesn",
    "don",     "didn",       "won",      "wouldn",     "shan",    "shouldn", "can",    "cannot",    "couldn",
    "mustn",   "let",        "a",        "an",         "the",     "and",     "but",    "if",        "or",
    "because", "as",         "until",    "while",      "of",      "at",      "by",     "for",       "with",
    "about",   "against",    "between",  "into",       "through", "during",  "before", "after",     "above",
    "below",   "to",         "from",     "up",         "down",    "in",      "out",    "on",        "off",
    "over",    "under",      "again",    "further",    "then",    "once",    "here",   "there",     "when",
    "where",   "why",        "how",      "all",        "any",     "both",    "each",   "few",       "more",
    "most",    "other",      "some",     "such",       "no",      "nor",     "not",    "only",      "own",
    "same",    "so",         "than",     "too",        "very"};

}  // namespace

bool is_english_stop_word(std::string_view token) {
  // Documents hold stems ("because" is "becaus" there), so the list is kept as its words' stems.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  static const std::unordered_set<std::string, Hash, std::equal_to<>> stems = [] {
    std::unordered_set<std::string, Hash, std::equal_to<>> out;
    for (const char* word : kSnowballEnglishStopWords) out.emplace(english_stem(word));
    return out;
  }();
  return stems.contains(token);
}

}  // namespace faultline::model
