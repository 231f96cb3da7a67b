#include "classifier/annotation/uncertain_queue.hpp"

#include <algorithm>

namespace faultline::annotation {

QueueStanding queue_standing(bool abstains, bool has_final_label,
                             const std::optional<std::string>& human_scope) {
  if (has_final_label) return QueueStanding::kManualLabel;
  if (human_scope == "out") return QueueStanding::kOutOfScope;
  return abstains ? QueueStanding::kQueued : QueueStanding::kModelLabels;
}

std::string queue_standing_name(QueueStanding standing) {
  switch (standing) {
    case QueueStanding::kManualLabel:
      return "manual_label";
    case QueueStanding::kOutOfScope:
      return "out_of_scope";
    case QueueStanding::kModelLabels:
      return "model_labels";
    case QueueStanding::kQueued:
      return "queued";
  }
  return "";
}

double label_margin(const datasets::Prediction& p) {
  return std::min(p.symptom_p - p.symptom_threshold.value_or(1.0),
                  p.root_cause_p - p.root_cause_threshold.value_or(1.0));
}

}  // namespace faultline::annotation
