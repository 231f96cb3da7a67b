// The references are the Snowball English stemmer's published sample vocabulary (the "consign…" and
// "kn…" rows of its documentation) and the output of a second implementation of the same algorithm (the
// Python snowballstemmer package) for words of this domain.
#include <gtest/gtest.h>
#include <libstemmer.h>

#include <string>
#include <utility>
#include <vector>

#include "classifier/model/word_stemmer.hpp"

namespace faultline::model {
namespace {

TEST(WordStemmer, StemsAsTheSnowballSampleVocabulary) {
  const std::pair<const char*, const char*> samples[] = {
      {"consign", "consign"},     {"consigned", "consign"},       {"consigning", "consign"},
      {"consignment", "consign"}, {"consistency", "consist"},     {"consistently", "consist"},
      {"consolation", "consol"},  {"consolatory", "consolatori"}, {"consolidating", "consolid"},
      {"consolingly", "consol"},  {"knackeries", "knackeri"},     {"kneeling", "kneel"},
      {"knightly", "knight"},     {"knitting", "knit"},           {"knives", "knive"},
      {"knockers", "knocker"}};
  for (const auto& [word, stem] : samples) EXPECT_EQ(english_stem(word), stem) << word;
}

TEST(WordStemmer, InflectionsOfThisDomainMeetInOneStem) {
  EXPECT_EQ(english_stem("upgrading"), "upgrad");
  EXPECT_EQ(english_stem("upgraded"), "upgrad");
  EXPECT_EQ(english_stem("compilation"), "compil");
  EXPECT_EQ(english_stem("compiling"), "compil");
  EXPECT_EQ(english_stem("dispatches"), "dispatch");
  EXPECT_EQ(english_stem("mismatched"), "mismatch");
  // The second call is served from the memo: the same answer.
  EXPECT_EQ(english_stem("upgrading"), "upgrad");
}

TEST(WordStemmer, NamesAndNonWordsAreLeftAsTheyAre) {
  // Each of these would change if it were stemmed as a word ("flash_attn_varlen_func" has no suffix, but
  // "torch.compiled" would lose its "ed", "sm_80s" its "s" and "kernels2" its "s").
  for (const char* name :
       {"torch.compiled", "sm_80s", "kernels2", "flash_attn_funcs", "Upgrading", "ünïcödés", "<num>", ""}) {
    EXPECT_EQ(english_stem(name), name) << name;
  }
  // A word over 40 letters is not English: left whole (stemmed it would lose its "ing"). At 40 it is stemmed.
  const std::string over = std::string(38, 'a') + "ing";
  EXPECT_EQ(english_stem(over), over);
  EXPECT_EQ(english_stem(std::string(37, 'a') + "ing"), std::string(37, 'a'));
}

// Words of one and two letters skip the memo on the grounds that Snowball leaves them alone: every one of
// them, checked against the Snowball stemmer itself.
TEST(WordStemmer, WordsOfOneAndTwoLettersAreWhatSnowballMakesOfThem) {
  sb_stemmer* snowball = sb_stemmer_new("english", "UTF_8");
  ASSERT_NE(snowball, nullptr);
  std::vector<std::string> words;
  for (char a = 'a'; a <= 'z'; ++a) {
    words.emplace_back(1, a);
    for (char b = 'a'; b <= 'z'; ++b) words.push_back(std::string{a, b});
  }
  for (const std::string& word : words) {
    const sb_symbol* s = sb_stemmer_stem(snowball, reinterpret_cast<const sb_symbol*>(word.data()),
                                         static_cast<int>(word.size()));
    const std::string expected(reinterpret_cast<const char*>(s),
                               static_cast<size_t>(sb_stemmer_length(snowball)));
    EXPECT_EQ(english_stem(word), expected) << word;
  }
  sb_stemmer_delete(snowball);
  // At three letters Snowball starts to change words (Python's snowballstemmer changes 648 of the 17,576):
  // the shortcut must stop at two.
  EXPECT_EQ(english_stem("its"), "it");
}

TEST(WordStemmer, StemsStayRightAfterTheMemoIsFull) {
  // 50,000 distinct words ("work" + syllables + "ing") overflow the memo more than once; each must still
  // lose just its "ing" (the Python snowballstemmer agrees for all 50,000), and known stems must still come
  // out right after the memo has been emptied.
  const char* syllables[] = {"bak", "dob", "fim", "gon", "lut", "mak", "nob", "pud", "rok", "tuv"};
  for (int i = 0; i < 50000; ++i) {
    std::string word = "work";
    int n = i;
    do {
      word += syllables[n % 10];
      n /= 10;
    } while (n > 0);
    ASSERT_EQ(english_stem(word + "ing"), word);
    // Asked again at once, the word is found in the memo (or after probing past its neighbours).
    ASSERT_EQ(english_stem(word + "ing"), word);
  }
  EXPECT_EQ(english_stem("consignment"), "consign");
  EXPECT_EQ(english_stem("upgrading"), "upgrad");
}

}  // namespace
}  // namespace faultline::model
