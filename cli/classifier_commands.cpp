#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <nlohmann/json.hpp>

#include "classifier/model/classify_store.hpp"
#include "classifier/model/evaluation.hpp"
#include "cli/commands.hpp"
#include "cli/text_table.hpp"

namespace faultline::cli {

namespace {

struct ClassifierOptions {
  std::string model_dir;
  double abstain_below = 0.5;
  int folds = 10;
  uint64_t seed = 7;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
};

std::string model_dir(const Context& ctx, const ClassifierOptions& o) {
  return o.model_dir.empty() ? model::default_model_dir(ctx.db_path) : o.model_dir;
}

std::string evaluation_text(const model::Evaluation& e) {
  std::vector<std::vector<std::string>> rows{{"axis / method", "accuracy", "macro-F1", "kappa"}};
  auto add = [&](const std::string& name, const model::AxisMetrics& m) {
    rows.push_back({name, fixed(m.accuracy), fixed(m.macro_f1), fixed(m.kappa)});
  };
  for (const auto& [axis, ev] : {std::pair{"symptom", &e.symptom}, std::pair{"root cause", &e.root_cause}}) {
    add(std::string(axis) + ": rules + fastText", ev->combined);
    add(std::string(axis) + ": fastText alone", ev->fasttext);
    add(std::string(axis) + ": rules alone", ev->rules);
    add(std::string(axis) + ": majority class", ev->majority);
  }
  return std::to_string(e.folds) + "-fold cross-validation over " + std::to_string(e.n) +
         " manually labeled issues\n" + text_table(rows) + "coverage at accuracy 0.9: symptom " +
         fixed(e.symptom.combined.coverage_at_90) + ", root cause " +
         fixed(e.root_cause.combined.coverage_at_90) + "\nexpected calibration error: symptom " +
         fixed(e.symptom.combined.expected_calibration_error) + ", root cause " +
         fixed(e.root_cause.combined.expected_calibration_error) + "\n";
}

}  // namespace

void add_classifier_commands(CLI::App& app, Context& ctx) {
  static ClassifierOptions o;
  auto* train = app.add_subcommand("train",
                                   "Train the classifier (RE2 rules + fastText) on the final manual labels; "
                                   "hyper-parameters, rule weight and calibration are chosen by 3-fold CV.\n"
                                   "Example: faultline train --abstain-below 0.5");
  train->add_option("--models", o.model_dir, "model directory (default: <db>.models)");
  train
      ->add_option("--abstain-below", o.abstain_below,
                   "queue an issue for manual labeling when its symptom or "
                   "root-cause probability is below this")
      ->check(CLI::Range(0.0, 1.0));
  train->callback([&ctx] {
    auto db = ctx.open_db();
    auto s = model::train_from_store(*db, model_dir(ctx, o), o.abstain_below);
    ctx.emit({{"version", s.version},
              {"labeled", s.labeled},
              {"scoped", s.scoped},
              {"seconds", s.seconds},
              {"models", model_dir(ctx, o)}},
             "trained model " + s.version + " on " + std::to_string(s.labeled) + " labeled issues (" +
                 std::to_string(s.scoped) + " with a scope decision) in " + fixed(s.seconds) + " s → " +
                 model_dir(ctx, o) + "\n");
  });

  auto* classify = app.add_subcommand("classify",
                                      "Predict scope, symptom and root cause of every issue; manual labels "
                                      "stay in force and are never overwritten.\n"
                                      "Example: faultline classify --json");
  classify->add_option("--models", o.model_dir, "model directory (default: <db>.models)");
  classify->callback([&ctx] {
    auto db = ctx.open_db();
    auto s = model::classify_store(*db, model_dir(ctx, o));
    ctx.emit(
        {{"version", s.version},
         {"classified", s.classified},
         {"abstained", s.abstained},
         {"manual", s.manual},
         {"seconds", s.seconds}},
        "classified " + std::to_string(s.classified) + " issues with model " + s.version + ": " +
            std::to_string(s.manual) + " keep their manual label, " + std::to_string(s.abstained) +
            " unlabeled ones are uncertain (export them with 'faultline label export --queue uncertain')\n");
  });

  auto* eval = app.add_subcommand("eval",
                                  "Stratified K-fold cross-validation against the final manual labels, with "
                                  "majority, rules-only and fastText-only baselines on the same folds.\n"
                                  "Example: faultline eval --folds 10 --json");
  eval->add_option("--folds", o.folds, "number of folds")->check(CLI::Range(2, 100));
  eval->add_option("--seed", o.seed, "seed of the fold assignment");
  eval->add_option("--jobs", o.jobs, "folds trained at once (default: the number of cores); results do not "
                                     "depend on it")
      ->check(CLI::Range(1, 256));
  eval->callback([&ctx] {
    auto db = ctx.open_db();
    model::FoldProgress progress;
    if (isatty(STDERR_FILENO)) {
      progress = [](int done, int folds) {
        std::fprintf(stderr, "\reval: %d of %d folds trained%s", done, folds, done == folds ? "\n" : "");
      };
    }
    auto e = model::evaluate(model::load_labeled_issues(*db), o.folds, o.seed, model::AxisTraining::standard(),
                             o.jobs, progress);
    ctx.emit(model::evaluation_json(e), evaluation_text(e));
  });
}

}  // namespace faultline::cli
