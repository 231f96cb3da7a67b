#include "classifier/model/classify_store.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

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

namespace {

// One batch on its way: predicted on `jobs` threads while the caller reads the next batch from the store.
struct PendingBatch {
  std::vector<datasets::IssueRecord> issues;
  std::vector<IssuePrediction> predictions;
  std::vector<std::future<void>> work;  // last, so that it is waited for before the data goes

  PendingBatch(const IssueClassifier& model, std::vector<datasets::IssueRecord>&& batch, int jobs)
      : issues(std::move(batch)), predictions(issues.size()) {
    for (int part = 0; part < jobs; ++part) {
      work.push_back(std::async(std::launch::async, [this, &model, part, jobs] {
        for (size_t i = part; i < issues.size(); i += jobs) predictions[i] = model.predict(issues[i]);
      }));
    }
  }
  PendingBatch(const PendingBatch&) = delete;  // the workers hold `this`
  PendingBatch& operator=(const PendingBatch&) = delete;
  void wait() {
    for (auto& w : work) w.get();  // rethrows a worker's exception
  }
};

}  // namespace

ClassifySummary classify_store(datasets::Database& db, const std::string& model_dir, size_t batch) {
  auto start = std::chrono::steady_clock::now();
  auto model = IssueClassifier::load(model_dir);
  auto finals = datasets::load_final_labels(db);
  ClassifySummary summary;
  summary.version = model.version();
  // Each issue's prediction is its own (the same on any thread), so batches are predicted on every core
  // while this thread reads the next batch and writes the previous one's predictions in order.
  const int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // One transaction for the whole table (a killed classify leaves the old predictions), read in batches.
  db.transaction([&] {
    datasets::PredictionWriter writer(db);
    std::optional<PendingBatch> pending;
    auto write_pending = [&] {
      if (!pending) return;
      pending->wait();
      for (size_t i = 0; i < pending->issues.size(); ++i) {
        const auto& issue = pending->issues[i];
        const IssuePrediction& p = pending->predictions[i];
        writer.add({issue.id, model.version(), p.scope, p.scope_p, p.symptom, p.symptom_p, p.root_cause,
                    p.root_cause_p, p.abstain, nlohmann::json(p.rules_fired).dump()});
        ++summary.classified;
        if (finals.count(issue.id)) {
          ++summary.manual;
        } else if (p.abstain) {
          ++summary.abstained;
        }
      }
      pending.reset();
    };
    datasets::for_each_issue_batch(db, batch, [&](std::vector<datasets::IssueRecord>& issues) {
      write_pending();
      pending.emplace(model, std::move(issues), jobs);
    });
    write_pending();
  });
  summary.seconds = seconds_since(start);
  return summary;
}

}  // namespace faultline::model
