#include "common/progress.hpp"

#include <unistd.h>

namespace faultline::common {

Progress::Style Progress::style_for_stderr(bool quiet) {
  if (quiet) return Style::kSilent;
  return isatty(STDERR_FILENO) ? Style::kRedraw : Style::kPeriodic;
}

Progress::Progress(std::ostream& out, Style style, std::chrono::steady_clock::duration interval, Clock clock)
    : out_(out), style_(style), interval_(interval), clock_(std::move(clock)) {}

// Work that ends by an exception leaves no half-drawn line before the error message.
Progress::~Progress() {
  if (line_open_) out_ << '\n' << std::flush;
}

void Progress::update(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (style_ == Style::kSilent) return;
  if (style_ == Style::kRedraw) {
    out_ << '\r' << line << "\033[K" << std::flush;
    line_open_ = true;
    return;
  }
  auto now = clock_();
  if (wrote_any_ && now - last_written_ < interval_) return;
  out_ << line << '\n' << std::flush;
  wrote_any_ = true;
  last_written_ = now;
}

void Progress::note(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (style_ == Style::kSilent) return;
  if (style_ == Style::kRedraw) {
    out_ << '\r' << line << "\033[K\n" << std::flush;
    line_open_ = false;
    return;
  }
  out_ << line << '\n' << std::flush;
  wrote_any_ = true;
  last_written_ = clock_();
}

}  // namespace faultline::common
