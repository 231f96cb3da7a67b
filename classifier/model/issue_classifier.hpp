// The whole classifier: scope, symptom and root cause for one issue, with probabilities, the rules that
// fired and whether it abstains. Trained from manual labels only.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "classifier/model/axis_model.hpp"
#include "classifier/model/rules.hpp"
#include "classifier/model/word_table.hpp"
#include "datasets/store/issue_record.hpp"

namespace faultline::model {

struct LabeledIssue {
  datasets::IssueRecord issue;
  std::string symptom;
  std::string root_cause;
};

struct IssuePrediction {
  std::string scope = "unknown";  // in | out | unknown (no scope model)
  double scope_p = 0;
  std::string symptom;
  double symptom_p = 0;
  std::string root_cause;
  double root_cause_p = 0;
  std::vector<std::string> rules_fired;
  bool abstain = false;
};

// What the classifier reads of an issue, computed once: the fastText document and the rule hits.
struct IssueFeatures {
  std::string document;
  Tokens tokens;  // of `document`
  // The tokens of the discussion's second reading (empty without a discussion): the symptom's fastText
  // model reads the discussion once; the root cause's and the scope's models and the neighbour search read
  // it twice.
  TokenSpan discussion_again;
  std::vector<int> fired;
  Distribution symptom_rules;
  Distribution root_cause_rules;
  // The same, of the rules that fire in the discussion alone.
  Distribution symptom_discussion_rules;
  Distribution root_cause_discussion_rules;
};

// The labeled issues most similar to one issue, with the distributions each axis gives it: what the
// classifier computes on the way to a prediction, for a caller that wants to show why.
struct IssueAnalysis {
  // The neighbours each axis's vote read (items index the training documents, then the descriptions the
  // search holds): found with the terms counted as that axis's model says (AxisModel::neighbour_term_counts),
  // among the items it counts (AxisModel::searched_items).
  std::vector<Neighbour> symptom_neighbours, root_cause_neighbours;
  Distribution scope, symptom, root_cause;
};
IssueFeatures extract_features(const RuleSet& rules, const datasets::IssueRecord& issue);

// How many times the root cause's fastText model reads each description (six: the README's measurements).
constexpr int kRootCauseDescriptionCopies = 6;
// How much a description found among an issue's nearest counts in the root cause's neighbour vote, as a
// multiple of its similarity (classifier/EXPERIMENTS.md: 2 and 3 measured alike, 1 lower).
constexpr double kRootCauseDescriptionNeighbourWeight = 2.0;
// The taxonomy's own account of each root cause, in its order, read as an issue from no repository: the
// name for a title, the definition and the typical cases for a body, normalised as an issue is (so with the
// tokens of the rules they fire and an empty repository token). What a category excludes is left out: it
// names other categories.
std::vector<ClassDescription> root_cause_descriptions(const RuleSet& rules);
// What the neighbour search may hold of the taxonomy, for each root cause in its order: its name with its
// definition, then its name with each typical case, each a document of its own, so that an issue like one
// typical case finds that case (classifier/EXPERIMENTS.md). Training keeps those of the labeled causes
// (description_rows).
std::vector<ClassDescription> root_cause_searched_descriptions(const RuleSet& rules);

// What the classifier labels and what it queues for a person: an issue is queued when its symptom's or its
// root cause's probability is under that axis's label threshold.
struct LabelPolicy {
  // The accuracy each axis's labels should reach on issues it has not seen (the second generation's
  // selective-labeling targets); the inner cross-validation chooses each axis's threshold for it.
  double symptom_accuracy = 0.95;
  double root_cause_accuracy = 0.85;
  // One threshold for both axes, fixed by hand, instead.
  std::optional<double> abstain_below;
};

// Called before each axis is trained: its name ("symptom", "root_cause", "scope"), its place and the count.
using AxisProgress = std::function<void(const std::string& axis, int index, int axes)>;

// Throws faultline::Error, its message led by `verb`, unless the labels hold two symptoms or more and two
// root causes or more: with one class every answer is right, so a model would promise an accuracy of 1. A
// cross-validation fold may still train on one class (a class with one issue, held out).
void require_two_classes(const std::vector<LabeledIssue>& labeled, const std::string& verb);

class IssueClassifier {
 public:
  // `scoped` are issues with a human scope decision (in/out); the scope axis is skipped when there are
  // too few of them. Rejects labels that are not taxonomy ids.
  static IssueClassifier train(const std::vector<LabeledIssue>& labeled,
                               const std::vector<datasets::IssueRecord>& scoped, const AxisTraining& training,
                               const LabelPolicy& labels = {}, const AxisProgress& progress = {});
  static IssueClassifier load(const std::string& directory);
  void save(const std::string& directory) const;

  IssuePrediction predict(const datasets::IssueRecord& issue) const;
  IssuePrediction predict(const IssueFeatures& features) const;
  // The prediction that analyse(features) gives, for a caller that keeps the analysis too.
  IssuePrediction predict(const IssueFeatures& features, const IssueAnalysis& analysis) const;
  IssueAnalysis analyse(const IssueFeatures& features) const;
  const AxisModel& symptom_model() const { return symptom_; }
  const AxisModel& root_cause_model() const { return root_cause_; }
  const RuleSet& rules() const { return rules_; }
  // Hash of the training data, the parameters chosen and the rules: recorded with every prediction.
  const std::string& version() const { return version_; }
  // Terms in more than this share of the labeled issues are left out of the neighbour search.
  double neighbour_max_document_share() const { return neighbour_max_document_share_; }

 private:
  RuleSet rules_ = RuleSet::builtin();
  // The labeled issues' documents, in the order of the symptom and root-cause examples: their neighbour
  // index serves both axes' votes.
  std::vector<std::string> documents_;
  // What the search holds of the taxonomy after the documents (root_cause_searched_descriptions; none in a
  // model saved before it was searched).
  std::vector<ClassDescription> searched_descriptions_;
  TfidfIndex index_;  // of documents_, then searched_descriptions_
  void build_index();
  // Throws unless the saved documents and descriptions are the items each axis's vote takes them to be.
  void check_searched_items(const std::string& directory) const;
  size_t neighbours_ = 10;
  double neighbour_max_document_share_ = 1.0;
  std::optional<AxisModel> scope_;
  AxisModel symptom_;
  AxisModel root_cause_;
  std::string version_;
  // The vocabularies of the symptom, root-cause and scope models, the index and the root cause's dimension
  // model, in that order.
  WordTable words_;
  void index_words();
};

}  // namespace faultline::model
