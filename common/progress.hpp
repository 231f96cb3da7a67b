// Progress of long work for people, on stderr: on a terminal one line redrawn in place; otherwise (a log,
// a pipe) one line every few seconds, so that a log stays short; nothing when silenced.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>

namespace faultline::common {

class Progress {
 public:
  enum class Style { kRedraw, kPeriodic, kSilent };
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // kSilent when `quiet`, kRedraw when stderr is a terminal, kPeriodic otherwise.
  static Style style_for_stderr(bool quiet);

  explicit Progress(std::ostream& out, Style style,
                    std::chrono::steady_clock::duration interval = std::chrono::seconds(5),
                    Clock clock = std::chrono::steady_clock::now);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // A passing state: redrawn on a terminal; written otherwise only when `interval` has passed since the
  // last line written (the first update is always written).
  void update(const std::string& line);
  // A line that must not be dropped (a rate-limit wait starting): always written (unless silent) as a
  // line of its own; on a terminal the next update is drawn below it.
  void note(const std::string& line);
  // The final state: written as a note is.
  void finish(const std::string& line) { note(line); }

 private:
  std::ostream& out_;
  Style style_;
  std::chrono::steady_clock::duration interval_;
  Clock clock_;
  std::mutex mutex_;
  bool wrote_any_ = false;
  bool line_open_ = false;  // a redrawn line is on screen without its newline
  std::chrono::steady_clock::time_point last_written_;
};

}  // namespace faultline::common
