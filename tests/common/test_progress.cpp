#include <gtest/gtest.h>

#include <sstream>

#include "common/progress.hpp"

using faultline::common::Progress;
using namespace std::chrono_literals;

namespace {

// A clock the test moves by hand.
struct ManualClock {
  std::chrono::steady_clock::time_point now{};
  Progress::Clock function() {
    return [this] { return now; };
  }
};

}  // namespace

TEST(Progress, OffATerminalWritesTheFirstUpdateThenAtMostOneLinePerInterval) {
  std::ostringstream out;
  ManualClock clock;
  Progress progress(out, Progress::Style::kPeriodic, 5s, clock.function());
  progress.update("a");  // t=0: the first is written
  clock.now += 2s;
  progress.update("b");  // t=2: too soon
  clock.now += 3s;
  progress.update("c");  // t=5: an interval after "a"
  clock.now += 1s;
  progress.update("d");     // t=6: too soon
  progress.finish("done");  // always written
  EXPECT_EQ(out.str(), "a\nc\ndone\n");
}

TEST(Progress, WithoutTheIntervalEveryUpdateIsALine) {
  std::ostringstream out;
  ManualClock clock;
  Progress progress(out, Progress::Style::kPeriodic, 0s, clock.function());
  progress.update("a");
  progress.update("b");
  progress.finish("done");
  EXPECT_EQ(out.str(), "a\nb\ndone\n");
}

TEST(Progress, OnATerminalRedrawsOneLineAndEndsItWithANewline) {
  std::ostringstream out;
  Progress progress(out, Progress::Style::kRedraw);
  progress.update("fold 1 of 2");
  progress.update("fold 2 of 2");
  progress.finish("done");
  EXPECT_EQ(out.str(), "\rfold 1 of 2\033[K\rfold 2 of 2\033[K\rdone\033[K\n");
}

TEST(Progress, ARedrawnLineLeftOpenIsEndedWhenTheWorkStopsEarly) {
  std::ostringstream out;
  {
    Progress progress(out, Progress::Style::kRedraw);
    progress.update("fold 1 of 2");
  }
  EXPECT_EQ(out.str(), "\rfold 1 of 2\033[K\n");
}

TEST(Progress, QuietWritesNothing) {
  std::ostringstream out;
  {
    Progress progress(out, Progress::Style::kSilent);
    progress.update("a");
    progress.finish("done");
  }
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(Progress::style_for_stderr(true), Progress::Style::kSilent);
}

TEST(Progress, ANoteIsWrittenEvenWithinTheIntervalAndStaysOnATerminal) {
  std::ostringstream log;
  ManualClock clock;
  Progress periodic(log, Progress::Style::kPeriodic, 5s, clock.function());
  periodic.update("page 1");  // t=0
  clock.now += 1s;
  periodic.note("waiting 30 s for a rate limit");  // t=1: an update would be dropped here
  clock.now += 1s;
  periodic.update("page 2");  // t=2: too soon after the note
  EXPECT_EQ(log.str(), "page 1\nwaiting 30 s for a rate limit\n");
  std::ostringstream terminal;
  Progress redraw(terminal, Progress::Style::kRedraw);
  redraw.update("page 1");
  redraw.note("waiting");
  redraw.update("page 2");
  EXPECT_EQ(terminal.str(), "\rpage 1\033[K\rwaiting\033[K\n\rpage 2\033[K");
}
