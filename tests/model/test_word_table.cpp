#include <gtest/gtest.h>

#include <cmath>

#include "classifier/model/fasttext_model.hpp"
#include "classifier/model/text_features.hpp"
#include "classifier/model/tfidf_index.hpp"
#include "classifier/model/word_table.hpp"
#include "datasets/store/snapshot.hpp"

using namespace faultline::model;

using Ids = std::vector<int32_t>;

TEST(WordTable, EachMemberGetsItsOwnIdsInTokenOrderWithRepeats) {
  // Member 0 knows a=0, b=1; member 1 knows b=0, c=2 (id 1 is a gap). The query "c a b a z" is, by hand:
  // member 0: a, b, a -> 0 1 0; member 1: c, b -> 2 0; z and the end-of-line token are nobody's.
  WordTable table({{"a", "b"}, {"b", "", "c"}});
  EXPECT_EQ(table.words(), 3u);  // a, b, c: b is one entry for both members
  auto ids = table.ids(tokenize("c a b a z"));
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0], (Ids{0, 1, 0}));
  EXPECT_EQ(ids[1], (Ids{2, 0}));
  // Without the member's vocabulary, the same tokens find nothing.
  EXPECT_EQ(WordTable({{}, {"b", "", "c"}}).ids(tokenize("a a"))[0], Ids{});
}

TEST(WordTable, AMemberDoesNotReadTheTokensItSkips) {
  // The table of the test above; the query "c a b a z" is c0 a1 b2 a3 z4 and the end-of-line token 5.
  WordTable table({{"a", "b"}, {"b", "", "c"}});
  // Member 0 skips a1 and b2: a3 is left, id 0; member 1 has no entry and reads all: c, b -> 2 0.
  auto ids = table.ids(tokenize("c a b a z"), {{1, 3}});
  EXPECT_EQ(ids[0], (Ids{0}));
  EXPECT_EQ(ids[1], (Ids{2, 0}));
  // Member 1 skips c0; member 0's empty span skips nothing.
  ids = table.ids(tokenize("c a b a z"), {{2, 2}, {0, 1}});
  EXPECT_EQ(ids[0], (Ids{0, 1, 0}));
  EXPECT_EQ(ids[1], (Ids{0}));
}

TEST(WordTable, TwoWordsWithTheSameHashKeepTheirOwnIds) {
  // "bgpvu" and "b13ea" share fastText's hash (see the index's test of the same pair): the table finds by
  // hash and must then tell them apart by their words.
  ASSERT_EQ(fasttext_hash("bgpvu"), fasttext_hash("b13ea"));
  using Vocabularies = std::vector<std::vector<std::string>>;
  WordTable table(Vocabularies{{"bgpvu", "b13ea"}});
  EXPECT_EQ(table.ids(tokenize("b13ea bgpvu b13ea"))[0], (Ids{1, 0, 1}));
  EXPECT_EQ(WordTable(Vocabularies{{"bgpvu"}}).ids(tokenize("b13ea"))[0], Ids{});
}

TEST(WordTable, IdsOfTheBundledCorpusAreWhatEachMembersOwnLookupGives) {
  // References: fastText's dictionary (Dictionary::getId, through word_ids) and the index's own term lookup.
  // The fastText model sees only half the corpus, so that many tokens are unknown to it.
  std::vector<std::string> docs, labels;
  for (const auto& r : faultline::datasets::read_snapshot(std::string(FAULTLINE_SOURCE_DIR) +
                                                          "/datasets/snapshot/issues.jsonl")) {
    docs.push_back(normalize_for_fasttext(document_text(r)));
    labels.push_back(r.scope.value_or("in"));
  }
  std::vector<std::string> half_docs(docs.begin(), docs.begin() + docs.size() / 2);
  std::vector<std::string> half_labels(labels.begin(), labels.begin() + labels.size() / 2);
  FastTextParams p;
  p.epoch = 2;
  auto model = FastTextModel::train(half_docs, half_labels, p);
  std::vector<Tokens> index_docs;
  for (size_t i = docs.size() / 2; i < docs.size(); ++i) index_docs.push_back(tokenize(docs[i]));
  TfidfIndex index(index_docs, 0.25);
  WordTable table({model.vocabulary(), index.vocabulary()});
  size_t unknown_to_model = 0, total = 0;
  for (const auto& doc : docs) {
    Tokens t = tokenize(doc);
    auto ids = table.ids(t);
    ASSERT_EQ(ids[0], model.word_ids(t));
    ASSERT_EQ(ids[1], index.term_ids(t));
    unknown_to_model += t.words.size() - ids[0].size();
    total += t.words.size();
  }
  EXPECT_GT(unknown_to_model, total / 50);  // the comparison covered unknown tokens too (4% of them here)
}
