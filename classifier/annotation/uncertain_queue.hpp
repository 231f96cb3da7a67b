// The uncertain queue: the issues a person is asked to label because the classifier would not label them.
#pragma once

#include <optional>
#include <string>

#include "datasets/store/prediction_store.hpp"

namespace faultline::annotation {

// Where an issue stands with the queue, in the order the reasons are checked.
enum class QueueStanding {
  kManualLabel,  // a final manual label is in force: nothing to ask
  kOutOfScope,   // a person put it out of scope: it gets no symptom or root cause
  kModelLabels,  // each axis's probability reaches its threshold
  kQueued,       // the classifier abstains: a person is asked
};
QueueStanding queue_standing(bool abstains, bool has_final_label,
                             const std::optional<std::string>& human_scope);
// "manual_label", "out_of_scope", "model_labels" or "queued", as JSON names it.
std::string queue_standing_name(QueueStanding standing);

// How far a prediction's surer-to-fail axis is from its label threshold: the smaller of p − threshold over
// the symptom and the root cause (negative: under it). The queue puts the most negative first. A threshold
// not stored (predictions of older versions) is read as 1, which ranks those by their lower probability.
double label_margin(const datasets::Prediction& p);

}  // namespace faultline::annotation
