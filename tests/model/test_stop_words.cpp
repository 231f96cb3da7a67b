// The references are written by hand: the Snowball English stop word list (snowballstem.org,
// algorithms/english/stop.txt) and the Snowball stems of its words as the stemmer's documentation derives
// them ("because" loses its "e" in step 5 and keeps "becaus"; "very" ends in "i" by step 1c).
#include <gtest/gtest.h>

#include "classifier/model/axis_model.hpp"
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
