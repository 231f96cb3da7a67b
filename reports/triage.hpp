// `faultline triage`: one issue, from the store or a corpus record from outside, as a maintainer meets it —
// the classifier's decisions with their probabilities and whether a person would be asked, why (the rules
// that fired, the tokens that moved each decision), the most similar labeled issues, and the reproducers
// worth running with what the suite last saw of them.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "classifier/annotation/uncertain_queue.hpp"
#include "classifier/model/issue_classifier.hpp"
#include "classifier/model/tfidf_index.hpp"
#include "classifier/model/token_influence.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/suite_store.hpp"

namespace faultline::reports {

// A labeled issue (final manual label) near the one triaged.
struct SimilarCase {
  std::string issue;  // owner/name#number
  std::string url;
  std::string symptom;
  std::string root_cause;
  double similarity = 0;
};

struct TriageReproducer {
  std::string id;
  std::string title;
  std::vector<datasets::SuiteResult> last_suite;  // latest result per mode and variant; empty: never run
};

// A reproducer modeled on a similar case (its manifest names the case, or `faultline link` linked them).
struct ModeledReproducer {
  TriageReproducer reproducer;
  SimilarCase modeled_on;
};

struct TriageResult {
  std::string issue;
  std::string url;
  std::string title;
  std::string model_version;
  // The probability from which each axis labels (above 1: it labels none); under either, queued.
  double symptom_threshold = 0, root_cause_threshold = 0;
  model::IssuePrediction prediction;  // prediction.abstain: the classifier would not label it
  // Whether a person would be asked: only where it abstains, no manual label is in force and no person put
  // the issue out of scope.
  annotation::QueueStanding queue = annotation::QueueStanding::kModelLabels;
  // The final manual label in force for an issue of the store, which the prediction does not replace.
  std::optional<datasets::FinalLabel> final_label;
  model::IssueAnalysis analysis;  // every class's probability on each axis
  model::DecisionInfluences influences;
  std::vector<SimilarCase> similar;                // the nearest labeled issues, most similar first
  std::vector<ModeledReproducer> similar_modeled;  // those modeled on the most similar case that has any
  std::vector<TriageReproducer> root_cause_reproducers;  // of the predicted root cause, by id
};

class Triage {
 public:
  // Loads the model, the labeled issues (indexed once), reproducer links and suite results, reading the
  // store only, so a write-protected store can be triaged against. `catalog`: the reproducer manifests.
  Triage(datasets::Database& db, const std::string& model_dir, std::vector<datasets::CatalogEntry> catalog);

  // An issue of the store, read as `classify` reads it (comments as its discussion); throws
  // faultline::Error naming the key when it is not there.
  datasets::IssueRecord stored_issue(const std::string& repo, int64_t number) const;
  TriageResult triage(const datasets::IssueRecord& issue) const;

  static constexpr size_t kSimilarShown = 5;

 private:
  struct Labeled {
    std::string issue;
    std::string repo;
    int64_t number = 0;
    std::string url;
    std::string symptom;
    std::string root_cause;
    std::vector<std::string> manual_links;  // `faultline link`
  };
  TriageReproducer reproducer(const std::string& id, const std::string& title) const;
  SimilarCase similar_case(const model::Neighbour& n) const;
  // `stored`: the issue's id in the store, if it is there.
  annotation::QueueStanding queue_standing(const datasets::IssueRecord& issue,
                                           const std::optional<int64_t>& stored, bool abstains) const;

  datasets::Database& db_;
  model::IssueClassifier model_;
  std::vector<datasets::CatalogEntry> catalog_;
  std::vector<Labeled> labeled_;
  annotation::LabelingStates labeling_;  // the store's final labels and screening decisions
  model::TfidfIndex index_;  // of the labeled issues' normalised documents, in the order of labeled_
  std::map<std::string, std::vector<datasets::SuiteResult>> last_suite_;  // by reproducer id
};

nlohmann::json triage_json(const TriageResult& result);
std::string triage_text(const TriageResult& result);

}  // namespace faultline::reports
