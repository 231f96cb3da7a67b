#include "reports/queue_line.hpp"

#include <cstdio>

#include "classifier/model/label_threshold.hpp"

namespace faultline::reports {

namespace {

std::string standing_text(annotation::QueueStanding standing, QueueMood mood) {
  const bool would = mood == QueueMood::kWouldBe;
  const std::string not_queued = would ? "would not be queued: " : "not queued: ";
  switch (standing) {
    case annotation::QueueStanding::kQueued:
      return would ? "would be queued for a person" : "queued for a person";
    case annotation::QueueStanding::kModelLabels:
      return not_queued + (would ? "the model would label it" : "the model labels it");
    case annotation::QueueStanding::kManualLabel:
      return not_queued + "its manual label is in force";
    case annotation::QueueStanding::kOutOfScope:
      return not_queued + "a person put it out of scope";
    case annotation::QueueStanding::kNotScreened:
      return not_queued + "not screened since it was stored or changed (run 'faultline screen')";
    case annotation::QueueStanding::kNotCandidate:
      return not_queued + "screening excluded it";
  }
  return "";
}

// The probability against its threshold, to as many places as it takes to tell them apart (three at least),
// so that the line never shows a probability equal to the threshold it is under.
std::string against(const std::string& axis, double p, std::optional<double> threshold) {
  if (!threshold) return axis + " threshold not recorded";
  if (model::labels_nothing(*threshold)) return axis + " labels none";
  char shown_p[32], shown_t[32];
  for (int places = 3; places <= 17; ++places) {
    std::snprintf(shown_p, sizeof shown_p, "%.*f", places, p);
    std::snprintf(shown_t, sizeof shown_t, "%.*f", places, *threshold);
    if (std::string(shown_p) != shown_t || p == *threshold) break;
  }
  return axis + " p " + shown_p + (p < *threshold ? " under its threshold " : " reaches its threshold ") +
         shown_t;
}

}  // namespace

std::string queue_line(annotation::QueueStanding standing, double symptom_p,
                       std::optional<double> symptom_threshold, double root_cause_p,
                       std::optional<double> root_cause_threshold, QueueMood mood) {
  return standing_text(standing, mood) + " (" + against("symptom", symptom_p, symptom_threshold) + "; " +
         against("root cause", root_cause_p, root_cause_threshold) + ")";
}

}  // namespace faultline::reports
