#include "classifier/model/classify_store.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <tuple>

#include "classifier/annotation/uncertain_queue.hpp"
#include "common/counted.hpp"
#include "common/error.hpp"
#include "common/parallel_tasks.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"

namespace faultline::model {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct TrainingIssues {
  LabeledIssues labeled;
  std::vector<datasets::IssueRecord> scoped;  // with a human scope decision
};

// One pass over the store, keeping only the issues training reads (a mined issue's comments stand in for
// its discussion), ordered by repository and number: the order the folds are dealt in, whatever the order
// of import.
TrainingIssues load_training_issues(datasets::Database& db) {
  auto finals = datasets::load_final_labels(db);
  TrainingIssues t;
  datasets::for_each_issue_batch(db, 2000, [&](std::vector<datasets::IssueRecord>& issues) {
    for (auto& issue : issues) {
      if (auto it = finals.find(issue.id); it != finals.end()) {
        if (issue.scope == "out")
          ++t.labeled.out_of_scope;
        else
          t.labeled.cases.push_back({issue, it->second.symptom, it->second.root_cause});
      }
      if (issue.scope) t.scoped.push_back(std::move(issue));
    }
  });
  auto by_key = [](const datasets::IssueRecord& a, const datasets::IssueRecord& b) {
    return std::tie(a.repo, a.number) < std::tie(b.repo, b.number);
  };
  std::sort(t.labeled.cases.begin(), t.labeled.cases.end(),
            [&](const LabeledIssue& a, const LabeledIssue& b) { return by_key(a.issue, b.issue); });
  std::sort(t.scoped.begin(), t.scoped.end(), by_key);
  return t;
}

}  // namespace

LabeledIssues load_labeled_issues(datasets::Database& db) { return load_training_issues(db).labeled; }

void require_cases_to_learn(const LabeledIssues& labeled, const std::string& verb) {
  if (labeled.out_of_scope == 0) return require_two_classes(labeled.cases, verb);
  const std::string left_out = " (" + common::counted(labeled.out_of_scope, "final label") +
                               " of issues a person put out of scope left out)";
  if (labeled.cases.empty())
    throw Error(verb + ": no final label of an issue in scope to learn from" + left_out);
  try {
    require_two_classes(labeled.cases, verb);
  } catch (const Error& e) {
    throw Error(e.what() + left_out);
  }
}

std::string default_model_dir(const std::string& db_path) { return db_path + ".models"; }

TrainSummary train_from_store(datasets::Database& db, const std::string& model_dir, const LabelPolicy& labels,
                              const AxisProgress& progress) {
  auto start = std::chrono::steady_clock::now();
  auto issues = load_training_issues(db);
  require_cases_to_learn(issues.labeled, "train");
  auto model =
      IssueClassifier::train(issues.labeled.cases, issues.scoped, AxisTraining::standard(), labels, progress);
  model.save(model_dir);
  return {model.version(),
          static_cast<int>(issues.labeled.cases.size()),
          issues.labeled.out_of_scope,
          static_cast<int>(issues.scoped.size()),
          seconds_since(start),
          model.symptom_model().label_threshold(),
          model.symptom_model().label_accuracy(),
          model.root_cause_model().label_threshold(),
          model.root_cause_model().label_accuracy()};
}

namespace {

// One batch on its way: predicted on `jobs` threads while the caller writes the previous batch and reads
// the next.
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
  const annotation::LabelingStates states(db);
  ClassifySummary summary;
  summary.version = model.version();
  // Each issue's prediction is its own (the same on any thread), so batches are predicted on every core
  // while this thread reads the next batch and writes the previous one's predictions in order.
  const int jobs = common::default_jobs();
  // One transaction for the whole table (a killed classify leaves the old predictions), read in batches.
  db.transaction([&] {
    datasets::PredictionWriter writer(db);
    std::unique_ptr<PendingBatch> pending;
    auto write = [&](PendingBatch& done) {
      done.wait();
      for (size_t i = 0; i < done.issues.size(); ++i) {
        const auto& issue = done.issues[i];
        const IssuePrediction& p = done.predictions[i];
        writer.add({issue.id, model.version(), p.scope, p.scope_p, p.symptom, p.symptom_p, p.root_cause,
                    p.root_cause_p, p.abstain, nlohmann::json(p.rules_fired).dump(),
                    model.symptom_model().label_threshold(), model.root_cause_model().label_threshold()});
        ++summary.classified;
        summary.queue.add(annotation::queue_standing(p.abstain, states.of(issue)), p.abstain);
      }
    };
    datasets::for_each_issue_batch(db, batch, [&](std::vector<datasets::IssueRecord>& issues) {
      // The next batch is started before the previous one is written, so the workers never wait for
      // the writes.
      auto next = std::make_unique<PendingBatch>(model, std::move(issues), jobs);
      if (pending) write(*pending);
      pending = std::move(next);
    });
    if (pending) write(*pending);
  });
  summary.seconds = seconds_since(start);
  return summary;
}

}  // namespace faultline::model
