// The references are written by hand: the Snowball English stop word list (snowballstem.org,
// algorithms/english/stop.txt) and the Snowball stems of its words as the stemmer's documentation derives
// them ("because" loses its "e" in step 5 and keeps "becaus"; "very" ends in "i" by step 1c).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "classifier/model/axis_model.hpp"
#include "classifier/model/fasttext_model.hpp"
#include "classifier/model/stop_words.hpp"
#include "classifier/model/text_features.hpp"

namespace faultline::model {
namespace {

TEST(StopWords, TheListsWordsAreKnownByTheStemsADocumentHolds) {
  for (const char* stem : {"the", "a", "was", "is", "of", "becaus", "veri", "doe", "onli", "dure", "befor",
                           "abov", "yourselv", "have", "do", "be", "not", "no"}) {
    EXPECT_TRUE(is_english_stop_word(stem)) << stem;
  }
  // The pieces of a contraction: "isn't" is written "isn t", "they're" "they re".
  for (const char* piece : {"isn", "t", "re", "ll", "don", "can"}) EXPECT_TRUE(is_english_stop_word(piece));
  // Words of the domain, the list's words as they never appear in a document (unstemmed, upper case), the
  // classifier's own tokens and the further common words Snowball lists apart ("one", "every", "never").
  for (const char* token : {"kernel", "crash", "hang", "slow", "nan", "error", "because", "very", "does",
                            "The", "<num>", "<code>", "__rule_x", "", "one", "everi", "never", "wa"}) {
    EXPECT_FALSE(is_english_stop_word(token)) << token;
  }
}

// The whole list, as Snowball writes it (contractions whole), typed apart from the code's: every token a
// document makes of each of its words is a stop word, so a word left out of the code's list is caught.
TEST(StopWords, EveryWordOfSnowballsListIsOneInADocument) {
  const std::string list =
      "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her "
      "hers herself it its itself they them their theirs themselves what which who whom this that these "
      "those am is are was were be been being have has had having do does did doing would should could "
      "ought i'm you're he's she's it's we're they're i've you've we've they've i'd you'd he'd she'd we'd "
      "they'd i'll you'll he'll she'll we'll they'll isn't aren't wasn't weren't hasn't haven't hadn't "
      "doesn't don't didn't won't wouldn't shan't shouldn't can't cannot couldn't mustn't let's that's "
      "who's what's here's there's when's where's why's how's a an the and but if or because as until while "
      "of at by for with about against between into through during before after above below to from up "
      "down in out on off over under again further then once here there when where why how all any both "
      "each few more most other some such no nor not only own same so than too very";
  size_t words = 0;
  std::istringstream in(list);
  for (std::string word; in >> word;) {
    ++words;
    const std::string document = normalize_for_fasttext(word);
    ASSERT_FALSE(document.empty()) << word;
    for_each_token(document, [&](std::string_view token) {
      EXPECT_TRUE(is_english_stop_word(token)) << word << " -> " << document;
    });
  }
  EXPECT_EQ(words, 174u);  // as typed above: the main part of Snowball's list, a word per line there
}

TEST(StopWords, ADocumentReadWithoutThemKeepsEveryOtherToken) {
  // normalize_for_fasttext stems and splits the contraction; the reading then drops the, was, veri, becaus,
  // a, isn, t, at and all, and nothing else.
  const std::string document =
      normalize_for_fasttext("The kernel was very slow because a warp isn't synchronised at all 12 times");
  ASSERT_EQ(document, "the kernel was veri slow becaus a warp isn t synchronis at all <num> time");
  EXPECT_EQ(fasttext_document(document, {}, {.without_stop_words = true}),
            "kernel slow warp synchronis <num> time");
  EXPECT_EQ(fasttext_document(document, {}, {.without_numbers = true, .without_stop_words = true}),
            "kernel slow warp synchronis time");
  EXPECT_EQ(fasttext_document(document, {}, {}), document);
  EXPECT_EQ(fasttext_document("the a of", {}, {.without_stop_words = true}), "");
}

}  // namespace
}  // namespace faultline::model
