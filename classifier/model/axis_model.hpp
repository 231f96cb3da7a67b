// One axis of the classifier (scope, symptom or root cause): an ensemble of a fastText model, the rule
// scores (over the whole issue and over its discussion alone), a vote of the most similar labeled issues and,
// where the classes fall into groups (root causes into the taxonomy's dimensions), a fastText model of the
// group, combined log-linearly with a prior correction for rare classes, the winner's probability calibrated
// by a temperature, every weight chosen by cross-validation.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "classifier/model/fasttext_model.hpp"
#include "classifier/model/tfidf_index.hpp"

namespace faultline::model {

using Distribution = std::map<std::string, double>;

// What an axis's fastText models (its own and its group's) read of a document; the neighbour search reads
// all of it.
struct FastTextReading {
  // They learn without the <num> token, which nearly every issue has; absent from their vocabulary it is
  // then passed over when they predict. Needs unigram models: word n-grams would span the dropped tokens.
  bool without_numbers = false;
  // They skip the discussion's second reading (AxisExample::discussion_again), learning and predicting.
  bool discussion_once = false;
  // They learn without English stop words (is_english_stop_word), and so pass them over when they predict.
  bool without_stop_words = false;
};

// The tokens that fastText models reading as `reading` skip in a document whose discussion's second reading
// is `discussion_again`.
inline TokenSpan skipped_tokens(const FastTextReading& reading, TokenSpan discussion_again) {
  return reading.discussion_once ? discussion_again : TokenSpan{};
}

// The text an axis's fastText models learn from: `document` (a normalised one) without the tokens that
// `reading` leaves out.
std::string fasttext_document(const std::string& document, TokenSpan discussion_again,
                              const FastTextReading& reading);

struct AxisExample {
  std::string document;  // normalised text
  Distribution rule_scores;
  // The rules that fire in the discussion alone: where a thread says what the cause was and what fixed it,
  // so a hit there is surer evidence than one in the report.
  Distribution discussion_rule_scores;
  std::string label;
  TokenSpan discussion_again;  // the tokens of the discussion's second reading in `document`, if any
};

// A class described in words (a taxonomy category's name, definition and typical cases), as a normalised
// document.
struct ClassDescription {
  std::string label;
  std::string document;
};

// What a fastText fit of an axis's classes reads after its examples: each description whose class is
// among `classes`, once and in order, and that `copies` times.
std::vector<ClassDescription> description_rows(const std::vector<ClassDescription>& descriptions,
                                               const std::vector<std::string>& classes, int copies);

struct AxisTraining {
  std::vector<FastTextParams> grid;  // candidate fastText settings
  std::vector<double> rule_weights{0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0};
  std::vector<double> discussion_rule_weights{0.0, 0.5, 1.0, 2.0, 3.0};
  std::vector<double> neighbour_weights{0.0, 0.5, 1.0, 2.0, 3.0, 4.0};
  // How much of log prior(c) is taken off each class's score: 0 keeps the frequent classes' advantage,
  // 1 scores every class as if all were equally frequent.
  std::vector<double> prior_corrections{0.0, 0.25, 0.5, 0.75, 1.0};
  // Candidates for the temperature of the winner's odds (combine), chosen by the log loss of the winner's
  // probability against whether it is right; none under 1.
  std::vector<double> temperatures{1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0};
  // The group of each class (a root cause's dimension). Empty: the axis has no group member. A group has
  // many more examples than most of its classes, so its model is surer of the coarse decision.
  std::map<std::string, std::string> class_groups;
  std::vector<double> group_weights{0.0, 0.5, 1.0, 2.0};
  FastTextReading fasttext_reading;
  // Every fastText fit of the axis's classes (not the group's) also learns from these descriptions, each
  // read `description_copies` times, as a rare class's own examples are few. No fold scores them (the
  // neighbour search holds its own copy, searched_descriptions). A class without labeled examples gets none
  // from its description.
  std::vector<ClassDescription> class_descriptions;
  int description_copies = 0;
  // Documents the neighbour search holds after the examples (the taxonomy's texts of the root causes), in
  // each fold's index as in the final one, so the folds' term statistics are the final search's. The vote
  // counts one among the k nearest as a neighbour of its class, at `description_neighbour_weight` times its
  // similarity; at 0 the search passes over them.
  std::vector<ClassDescription> searched_descriptions;
  double description_neighbour_weight = 0;
  size_t neighbours = 10;  // k of the neighbour vote
  // How the similarity behind the neighbour vote counts a term repeated in a document.
  TermCounts neighbour_term_counts = TermCounts::kDamped;
  // Terms in more than this share of the labeled documents are left out of their similarity.
  double neighbour_max_document_share = 0.25;
  // The accuracy the axis's labels should reach on issues it has not seen (more than 0, at most 1): its
  // label threshold is then chosen on the inner cross-validation's held-out winners (label_threshold).
  // Without one, the threshold is `fixed_label_threshold` (0: it labels every issue).
  std::optional<double> label_accuracy;
  double fixed_label_threshold = 0;
  int folds = 3;
  uint64_t seed = 7;
  int jobs = 1;  // threads for the independent fastText fits; the model does not depend on it
  static AxisTraining standard();
};

// The ensemble's weights for one axis.
struct AxisWeights {
  double rule = 0;
  double discussion_rule = 0;
  double neighbour = 0;
  double prior_correction = 0;
  double temperature = 1;
  double group = 0;
};

// What one example says of each class of an axis (by index into its sorted classes): fastText's log
// probability, the rule scores (whole issue, discussion alone), the log share of the neighbour vote, the log
// prior, and the group model's log probability of the class's group (0 for every class where the axis has no
// groups).
struct AxisEvidence {
  std::vector<double> log_fasttext, rules, discussion_rules, log_neighbours, log_prior, log_group;
};

// With s(c) = log p_ft(c) + w_r·rules(c) + w_t·discussion rules(c) + w_n·log vote(c) − α·log prior(c) +
// w_g·log p_group(group(c)), the likeliest class t (the first of equals) and rest = Σ_{c≠t} e^(s(c) − s(t)):
// p(t) = 1 / (1 + rest^(1/T)), and each other class shares 1 − p(t) in proportion to e^s(c). T = 1 is
// softmax(s); with two classes it is softmax(s / T). T must be at least 1, so t stays the likeliest.
std::vector<double> combine(const AxisEvidence& evidence, const AxisWeights& weights);

// The temperature among `candidates` (the first of equals) whose winners' probabilities, combined with
// `weights` otherwise, have the least log loss against whether each winner is the `gold` class: it
// calibrates how sure the axis is of its answer, not of every class.
double calibrated_temperature(const std::vector<AxisEvidence>& evidence, const std::vector<size_t>& gold,
                              AxisWeights weights, const std::vector<double>& candidates);

// log((similarity of the neighbours of class c + s) / (similarity of all + s·classes)), s = 0.1: the
// neighbours' similarity-weighted vote, smoothed. Items index the examples, then the descriptions after
// them, whose similarity counts `description_weight` times. Neighbours of a label outside `classes` are
// skipped.
std::vector<double> neighbour_vote(const std::vector<Neighbour>* neighbours,
                                   const std::vector<std::string>& example_labels,
                                   const std::vector<std::string>& classes,
                                   const std::vector<std::string>& description_labels,
                                   double description_weight);

// What an axis reads of one issue besides its tokens.
struct AxisInputs {
  const Distribution* rule_scores = nullptr;
  const Distribution* discussion_rule_scores = nullptr;
  // In the index built from the training documents, then the searched descriptions; none past
  // searched_items().
  const std::vector<Neighbour>* neighbours = nullptr;
  // The fastText ids of the tokens the models read (the tokens but skipped_tokens()), from a WordTable of
  // fasttext_vocabulary() (and of group_vocabulary()); looked up when absent.
  const std::vector<int32_t>* word_ids = nullptr;
  const std::vector<int32_t>* group_word_ids = nullptr;
  TokenSpan discussion_again;  // the tokens of the discussion's second reading, if any
};

class AxisModel {
 public:
  // Examples of the symptom and root-cause axes come in the same order and with the same documents, so
  // that one neighbour search over them serves both.
  static AxisModel train(const std::string& axis, const std::vector<AxisExample>& examples,
                         const AxisTraining& training);

  // Calibrated combination of every member.
  Distribution predict(const Tokens& tokens, const AxisInputs& inputs) const;
  // The parts alone, for baselines: fastText's distribution, and the rules' best category (majority if none
  // fired).
  Distribution predict_fasttext(const Tokens& tokens, TokenSpan discussion_again) const {
    return fasttext_.predict(tokens, skipped_tokens(discussion_again));
  }
  // The tokens its fastText models do not read, of a document whose discussion's second reading is
  // `discussion_again`.
  TokenSpan skipped_tokens(TokenSpan discussion_again) const {
    return model::skipped_tokens(reading_, discussion_again);
  }
  std::string predict_rules(const Distribution& rule_scores) const;
  const std::string& majority() const { return majority_; }
  // How the neighbours its vote reads were found (AxisInputs::neighbours must be found so).
  TermCounts neighbour_term_counts() const { return neighbour_term_counts_; }
  // How many of the index's items its neighbours may be: the training examples, then the descriptions its
  // vote counts (none at a description weight of 0).
  size_t searched_items() const { return examples() + description_labels_.size(); }
  size_t examples() const { return training_labels_.size(); }
  const std::vector<std::string>& description_labels() const { return description_labels_; }
  const std::string& axis() const { return axis_; }
  const AxisWeights& weights() const { return weights_; }
  // The probability from which it labels an issue (below it the issue is queued for a person; above 1 it
  // labels none), and the accuracy it was chosen for (0: a threshold fixed by hand).
  double label_threshold() const { return label_threshold_; }
  double label_accuracy() const { return label_accuracy_; }
  // Whether it labels an issue whose winner has probability `p` (else the issue is queued for a person).
  bool labels(double p) const { return p >= label_threshold_; }
  std::vector<std::string> fasttext_vocabulary() const { return fasttext_.vocabulary(); }
  // The group model's words; none when the axis has no group member.
  std::vector<std::string> group_vocabulary() const;

  void save(const std::string& directory) const;
  static AxisModel load(const std::string& directory, const std::string& axis);
  nlohmann::json describe() const;

 private:
  std::string axis_;
  FastTextModel fasttext_;
  std::optional<FastTextModel> group_fasttext_;  // present when the group weight is not 0
  std::map<std::string, std::string> class_groups_;
  std::vector<size_t> group_label_of_class_;  // index in group_fasttext_->labels() of each class's group
  FastTextParams params_;
  FastTextReading reading_;
  // A record of what its fastText model learned from besides the examples (the benchmark's baseline reads
  // it to train the same): whose descriptions, how many times each.
  std::vector<std::string> described_classes_;
  int description_copies_ = 0;
  AxisWeights weights_;
  double label_threshold_ = 0;
  double label_accuracy_ = 0;
  std::string majority_;
  TermCounts neighbour_term_counts_ = TermCounts::kDamped;
  std::vector<std::string> classes_;          // sorted; derived from training_labels_
  std::vector<double> log_priors_;            // by class, smoothed shares of the training labels
  std::vector<std::string> training_labels_;  // by training example: the neighbour vote, classes, priors
  // The classes of the descriptions the vote counts, in the index's order after the examples, and how
  // much each counts; empty at a weight of 0.
  std::vector<std::string> description_labels_;
  double description_neighbour_weight_ = 0;
  std::vector<size_t> fasttext_label_of_class_;  // index in fasttext_.labels(), or SIZE_MAX if it has none
};

// Fold of each example, stratified by label: within each label, a seeded shuffle dealt round-robin.
std::vector<int> stratified_folds(const std::vector<std::string>& labels, int folds, uint64_t seed);

}  // namespace faultline::model
