// The queue line of `show` and `triage`: the standing, then each probability against its threshold, written
// to enough places that a probability under its threshold never reads as equal to it.
#include <gtest/gtest.h>

#include "classifier/model/label_threshold.hpp"
#include "reports/queue_line.hpp"

namespace {

using faultline::annotation::QueueStanding;
using faultline::reports::queue_line;

TEST(QueueLine, SaysTheStandingAndEachAxisAgainstItsThreshold) {
  EXPECT_EQ(queue_line(QueueStanding::kQueued, 0.9, 0.816, 0.5, 0.803),
            "queued for a person (symptom p 0.900 reaches its threshold 0.816; root cause p 0.500 under its "
            "threshold 0.803)");
  EXPECT_EQ(
      queue_line(QueueStanding::kModelLabels, 0.816, 0.816, 0.9, 0.803),
      "not queued: the model labels it (symptom p 0.816 reaches its threshold 0.816; root cause p 0.900 "
      "reaches its threshold 0.803)");
}

TEST(QueueLine, TriageSaysWhatWouldHappenNotWhatIsStored) {
  using faultline::reports::QueueMood;
  EXPECT_EQ(queue_line(QueueStanding::kQueued, 0.9, 0.816, 0.5, 0.803, QueueMood::kWouldBe),
            "would be queued for a person (symptom p 0.900 reaches its threshold 0.816; root cause p 0.500 "
            "under its threshold 0.803)");
  EXPECT_EQ(queue_line(QueueStanding::kModelLabels, 0.9, 0.816, 0.9, 0.803, QueueMood::kWouldBe)
                .rfind("would not be queued: the model would label it (", 0),
            0u);
  EXPECT_EQ(queue_line(QueueStanding::kOutOfScope, 0.9, 0.816, 0.9, 0.803, QueueMood::kWouldBe)
                .rfind("would not be queued: a person put it out of scope (", 0),
            0u);
}

TEST(QueueLine, WidensThePlacesUntilAProbabilityUnderItsThresholdReadsApart) {
  // 0.8159 and 0.816 both round to 0.816 at three places; at four they read 0.8159 and 0.8160.
  EXPECT_EQ(
      queue_line(QueueStanding::kQueued, 0.8159, 0.816, 0.9, 0.803),
      "queued for a person (symptom p 0.8159 under its threshold 0.8160; root cause p 0.900 reaches its "
      "threshold 0.803)");
  // 0.80299 reads 0.803 at three places and 0.8030 at four, as the threshold does; five tell them apart.
  EXPECT_NE(queue_line(QueueStanding::kQueued, 0.9, 0.816, 0.80299, 0.803)
                .find("; root cause p 0.80299 under its threshold 0.80300)"),
            std::string::npos);
}

TEST(QueueLine, SaysWhenAThresholdWasNotRecordedOrLabelsNone) {
  EXPECT_EQ(
      queue_line(QueueStanding::kManualLabel, 0.9, std::nullopt, 0.5,
                 faultline::model::label_nothing_threshold()),
      "not queued: its manual label is in force (symptom threshold not recorded; root cause labels none)");
  EXPECT_EQ(queue_line(QueueStanding::kOutOfScope, 0.9, 0.816, 0.5, 0.803)
                .rfind("not queued: a person put it "
                       "out of scope (",
                       0),
            0u);
  EXPECT_EQ(queue_line(QueueStanding::kNotCandidate, 0.9, 0.816, 0.5, 0.803)
                .rfind("not queued: screening excluded it (", 0),
            0u);
  EXPECT_EQ(
      queue_line(QueueStanding::kNotScreened, 0.9, 0.816, 0.5, 0.803, faultline::reports::QueueMood::kWouldBe)
          .rfind("would not be queued: not screened since it was stored or changed (run 'faultline screen') (", 0),
      0u);
}

}  // namespace
