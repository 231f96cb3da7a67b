#include "classifier/model/classify_store.hpp"

#include <chrono>
#include <nlohmann/json.hpp>

#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"

namespace faultline::model {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

namespace {

// Every issue as the classifier reads it: a mined issue's comments stand in for its discussion.
std::vector<datasets::IssueRecord> issues_with_discussions(datasets::Database& db) {
  auto issues = datasets::load_issues(db);
  datasets::attach_comment_discussions(db, issues);
  return issues;
}

}  // namespace

std::vector<LabeledIssue> load_labeled_issues(datasets::Database& db) {
  auto finals = datasets::load_final_labels(db);
  std::vector<LabeledIssue> out;
  for (auto& issue : issues_with_discussions(db)) {
    auto it = finals.find(issue.id);
    if (it != finals.end()) out.push_back({std::move(issue), it->second.symptom, it->second.root_cause});
  }
  return out;
}

std::string default_model_dir(const std::string& db_path) { return db_path + ".models"; }

TrainSummary train_from_store(datasets::Database& db, const std::string& model_dir, double abstain_below,
                              const AxisProgress& progress) {
  auto start = std::chrono::steady_clock::now();
  auto labeled = load_labeled_issues(db);
  std::vector<datasets::IssueRecord> scoped;
  for (auto& issue : issues_with_discussions(db)) {
    if (issue.scope) scoped.push_back(std::move(issue));
  }
  auto model = IssueClassifier::train(labeled, scoped, AxisTraining::standard(), abstain_below, progress);
  model.save(model_dir);
  return {model.version(), static_cast<int>(labeled.size()), static_cast<int>(scoped.size()),
          seconds_since(start)};
}

ClassifySummary classify_store(datasets::Database& db, const std::string& model_dir, size_t batch) {
  auto start = std::chrono::steady_clock::now();
  auto model = IssueClassifier::load(model_dir);
  auto finals = datasets::load_final_labels(db);
  ClassifySummary summary;
  summary.version = model.version();
  // One transaction for the whole table (a killed classify leaves the old predictions), read in batches.
  db.transaction([&] {
    datasets::PredictionWriter writer(db);
    datasets::for_each_issue_batch(db, batch, [&](std::vector<datasets::IssueRecord>& issues) {
      for (const auto& issue : issues) {
        IssuePrediction p = model.predict(issue);
        writer.add({issue.id, model.version(), p.scope, p.scope_p, p.symptom, p.symptom_p, p.root_cause,
                    p.root_cause_p, p.abstain, nlohmann::json(p.rules_fired).dump()});
        ++summary.classified;
        if (finals.count(issue.id)) {
          ++summary.manual;
        } else if (p.abstain) {
          ++summary.abstained;
        }
      }
    });
  });
  summary.seconds = seconds_since(start);
  return summary;
}

}  // namespace faultline::model
