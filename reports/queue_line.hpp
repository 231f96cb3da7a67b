// One line on where an issue stands with the uncertain queue, as `triage` and `show` print it: the standing,
// then each axis's probability against its label threshold.
#pragma once

#include <optional>
#include <string>

#include "classifier/annotation/uncertain_queue.hpp"

namespace faultline::reports {

// Whether the line tells of a stored prediction (`show`: "queued", "not queued") or of what the model
// would do now (`triage`, whose issue may have no stored prediction or not be in the store at all).
enum class QueueMood { kStored, kWouldBe };

// e.g. "not queued: a person put it out of scope (symptom p 0.994 reaches its threshold 0.816; root cause
// p 0.690 under its threshold 0.803)". A threshold not stored (an older prediction) is said to be unknown.
std::string queue_line(annotation::QueueStanding standing, double symptom_p,
                       std::optional<double> symptom_threshold, double root_cause_p,
                       std::optional<double> root_cause_threshold, QueueMood mood = QueueMood::kStored);

}  // namespace faultline::reports
