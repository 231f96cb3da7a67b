#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "classifier/annotation/uncertain_queue.hpp"
#include "classifier/model/classify_store.hpp"
#include "classifier/model/evaluation.hpp"
#include "classifier/model/fold_assignments.hpp"
#include "classifier/model/label_threshold.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/text_table.hpp"
#include "common/atomic_file.hpp"
#include "common/counted.hpp"
#include "common/error.hpp"
#include "common/parallel_tasks.hpp"

namespace faultline::cli {

namespace {

// What a model labels and what it queues for a person: train's options, and eval's for the models it trains.
void add_label_options(CLI::App* command, model::LabelPolicy& o) {
  auto* symptom =
      command
          ->add_option(
              "--symptom-accuracy", o.symptom_accuracy,
              "how often the symptoms it labels should be right: the inner CV chooses the "
              "probability from which it labels one; it abstains on the rest, and queues for a person those "
              "no person put out of scope and screening made candidates")
          ->check(accuracy_to_label())
          ->capture_default_str();
  auto* cause =
      command
          ->add_option("--root-cause-accuracy", o.root_cause_accuracy,
                       "the same for the root cause (an issue under either axis's threshold is abstained on)")
          ->check(accuracy_to_label())
          ->capture_default_str();
  command
      ->add_option("--abstain-below", o.abstain_below,
                   "instead, one fixed threshold: abstain on an issue (and queue it for manual labeling "
                   "if it is a screening candidate no person put out of scope) when its symptom or "
                   "root-cause probability is below "
                   "this")
      ->check(number_in(0.0, 1.0))
      ->excludes(symptom)
      ->excludes(cause);
}

struct TrainOptions {
  std::string model_dir;
  model::LabelPolicy labels;
};

struct ClassifyOptions {
  std::string model_dir;
};

struct EvalOptions {
  int folds = 10;
  uint64_t seed = 7;
  std::optional<std::vector<uint64_t>> seeds;  // several fold assignments, summarised, instead of one
  // The quantile of creation dates before which the time split trains; 0 skips it. Unset: 0.8, or none
  // with `seeds`.
  std::optional<double> time_split;
  std::string out;
  int jobs = common::default_jobs();
  model::LabelPolicy labels;
};

std::string model_dir(const Context& ctx, const std::string& chosen) {
  return chosen.empty() ? model::default_model_dir(ctx.db_path) : chosen;
}

void add_method_rows(std::vector<std::vector<std::string>>& rows, const model::Evaluation& e, bool split) {
  auto add = [&](const std::string& name, const model::AxisMetrics& m) {
    rows.push_back({name, fixed(m.accuracy), fixed(m.macro_f1), fixed(m.kappa)});
  };
  const auto& symptom = split ? e.time_split->symptom : e.symptom;
  const auto& cause = split ? e.time_split->root_cause : e.root_cause;
  for (const auto& [axis, ev] : {std::pair{"symptom", &symptom}, std::pair{"root cause", &cause}}) {
    add(std::string(axis) + ": ensemble", ev->combined);
    add(std::string(axis) + ": fastText alone", ev->fasttext);
    add(std::string(axis) + ": rules alone", ev->rules);
    add(std::string(axis) + ": majority class", ev->majority);
  }
}

std::string threshold_text(const model::AxisMetrics& symptom, const model::AxisMetrics& cause) {
  std::vector<std::vector<std::string>> rows{{"threshold", "symptom: coverage", "accuracy", "macro-F1",
                                              "root cause: coverage", "accuracy", "macro-F1"}};
  for (size_t i = 0; i < symptom.thresholds.size(); ++i) {
    const auto &s = symptom.thresholds[i], &c = cause.thresholds[i];
    rows.push_back({fixed(s.threshold), fixed(s.coverage), s.labeled ? fixed(s.accuracy) : "-",
                    s.labeled ? fixed(s.macro_f1) : "-", fixed(c.coverage),
                    c.labeled ? fixed(c.accuracy) : "-", c.labeled ? fixed(c.macro_f1) : "-"});
  }
  return text_table(rows);
}

std::string selective_text(const model::AxisMetrics& m) {
  std::string out;
  for (const auto& p : m.selective) {
    out += (out.empty() ? "" : ", ") + fixed(p.coverage, 1) + " → " + fixed(p.accuracy);
  }
  return out;
}

// An accuracy asked for, as given: 1e-3 stays 1e-3 rather than 0.00.
std::string asked(double accuracy) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", accuracy);
  return text;
}

// What each fold's model labels by its own thresholds, e.g. "labels 0.412 at accuracy 0.851 (thresholds
// chosen for accuracy 0.85; mean threshold 0.781)".
std::string own_threshold_text(const model::AxisEvaluation& e) {
  return "labels " + fixed(e.own_threshold.coverage) + " at accuracy " +
         (e.own_threshold.labeled ? fixed(e.own_threshold.accuracy) : std::string("-")) +
         (e.label_accuracy > 0 ? " (thresholds chosen for accuracy " + asked(e.label_accuracy) +
                                     "; mean threshold " + fixed(e.mean_threshold) + ")"
                               : " (threshold fixed at " + fixed(e.mean_threshold) + ")");
}

std::string evaluation_text(const model::Evaluation& e) {
  std::vector<std::vector<std::string>> rows{{"axis / method", "accuracy", "macro-F1", "kappa"}};
  add_method_rows(rows, e, false);
  std::string out =
      std::to_string(e.folds) + "-fold cross-validation over " + std::to_string(e.n) +
      " manually labeled issues\n" + text_table(rows) + "coverage at accuracy 0.9: symptom " +
      fixed(e.symptom.combined.coverage_at_90) + ", root cause " +
      fixed(e.root_cause.combined.coverage_at_90) + "\nexpected calibration error: symptom " +
      fixed(e.symptom.combined.expected_calibration_error) + ", root cause " +
      fixed(e.root_cause.combined.expected_calibration_error) +
      "\naccuracy of the most confident share (coverage → accuracy): symptom " +
      selective_text(e.symptom.combined) + "; root cause " + selective_text(e.root_cause.combined) +
      "\nlabeling by each fold's own label thresholds: symptom " + own_threshold_text(e.symptom) +
      "; root cause " + own_threshold_text(e.root_cause) + "\nlabeling only above a confidence threshold:\n" +
      threshold_text(e.symptom.combined, e.root_cause.combined);
  if (e.time_split) {
    const auto& t = *e.time_split;
    std::vector<std::vector<std::string>> split_rows{{"axis / method", "accuracy", "macro-F1", "kappa"}};
    add_method_rows(split_rows, e, true);
    out +=
        "time split: trained on the " + std::to_string(t.train) + " issues created before " + t.cut +
        ", tested on the " + std::to_string(t.test) + " created since" +
        (t.undated ? " (" + std::to_string(t.undated) + " without a date, in neither part)" : std::string()) +
        "\n" + text_table(split_rows) + "labeling by its own label thresholds: symptom " +
        own_threshold_text(t.symptom) + "; root cause " + own_threshold_text(t.root_cause) + "\n";
  }
  return out;
}

void train(const Context& ctx, const TrainOptions& o) {
  auto db = ctx.open_db();
  auto progress = ctx.progress();
  auto dir = model_dir(ctx, o.model_dir);
  common::require_directory_or_nothing(dir);  // before training, not after
  auto s = model::train_from_store(*db, dir, o.labels, [&](const std::string& axis, int index, int axes) {
    progress->update("train: axis " + std::to_string(index) + " of " + std::to_string(axes) + " (" + axis +
                     ")");
  });
  progress->finish("train: done in " + fixed(s.seconds, 1) + " s");
  auto labels_from = [](double threshold, double accuracy) {
    const std::string from =
        model::labels_nothing(threshold) ? std::string("labels none") : "labels from p ≥ " + fixed(threshold);
    return from + (accuracy > 0 ? " (chosen for accuracy " + asked(accuracy) + ")" : std::string(" (fixed)"));
  };
  ctx.emit({{"version", s.version},
            {"labeled", s.labeled},
            {"labeled_out_of_scope", s.labeled_out_of_scope},
            {"scoped", s.scoped},
            {"seconds", s.seconds},
            {"models", dir},
            {"label_thresholds", {{"symptom", s.symptom_threshold}, {"root_cause", s.root_cause_threshold}}},
            // null: a threshold fixed by hand, chosen for no accuracy.
            {"label_accuracies",
             {{"symptom", s.symptom_accuracy > 0 ? nlohmann::json(s.symptom_accuracy) : nlohmann::json()},
              {"root_cause",
               s.root_cause_accuracy > 0 ? nlohmann::json(s.root_cause_accuracy) : nlohmann::json()}}}},
           "trained model " + s.version + " on " + std::to_string(s.labeled) + " labeled issues (" +
               std::to_string(s.scoped) + " with a scope decision) in " + fixed(s.seconds) + " s → " + dir +
               (s.labeled_out_of_scope > 0
                    ? "\nnot trained on: " + common::counted(s.labeled_out_of_scope, "final label") +
                          " of issues a person put out of scope"
                    : std::string()) +
               "\nsymptom " + labels_from(s.symptom_threshold, s.symptom_accuracy) + "; root cause " +
               labels_from(s.root_cause_threshold, s.root_cause_accuracy) +
               "; an issue under either threshold is abstained on, and queued for a person if it is a "
               "screening candidate no person put out of scope\n");
}

void classify(const Context& ctx, const ClassifyOptions& o) {
  auto db = ctx.open_db();
  auto s = model::classify_store(*db, model_dir(ctx, o.model_dir));
  ctx.emit({{"version", s.version},
            {"classified", s.classified},
            {"manual", s.queue.manual},
            {"queued", s.queue.queued},
            {"abstained_excluded", s.queue.abstained_excluded},
            {"abstained_unscreened", s.queue.abstained_unscreened},
            {"seconds", s.seconds}},
           "classified " + std::to_string(s.classified) + " issues with model " + s.version + ": " +
               std::to_string(s.queue.manual) + " keep their manual label; " +
               annotation::queue_clause(s.queue) + "\n");
}

std::vector<std::string> figure_cells(const model::AxisFigures& f) {
  // NaN: not measured (the folds labeled none, or one value has no deviation).
  auto cell = [](double v) { return std::isnan(v) ? std::string("-") : fixed(v); };
  return {cell(f.accuracy), cell(f.macro_f1),     cell(f.kappa),
          cell(f.surest),   cell(f.own_coverage), cell(f.own_accuracy)};
}

std::string fold_assignments_text(int n, int folds,
                                  const std::vector<model::FoldAssignmentFigures>& figures) {
  auto percent = [](double share) {
    return std::to_string(static_cast<int>(std::lround(share * 100))) + "%";
  };
  std::vector<std::vector<std::string>> rows{
      {"fold assignment", "symptom: accuracy", "macro-F1", "kappa",
       "surest " + percent(model::kSymptomSurestShare), "labels", "at", "root cause: accuracy", "macro-F1",
       "kappa", "surest " + percent(model::kRootCauseSurestShare), "labels", "at"}};
  auto add = [&](const std::string& name, const model::AxisFigures& symptom,
                 const model::AxisFigures& cause) {
    std::vector<std::string> row{name};
    for (const auto& cell : figure_cells(symptom)) row.push_back(cell);
    for (const auto& cell : figure_cells(cause)) row.push_back(cell);
    rows.push_back(row);
  };
  // "seed 3", not "3": a seed is a name, set on the left, not a figure set on the right under the others.
  for (const auto& f : figures) add("seed " + std::to_string(f.seed), f.symptom, f.root_cause);
  const auto summary = model::summarise(figures);
  const auto &s = summary.symptom, &c = summary.root_cause;
  add("mean", s.mean, c.mean);
  if (summary.has_deviation) add("standard deviation", s.standard_deviation, c.standard_deviation);
  add("lowest", s.lowest, c.lowest);
  add("highest", s.highest, c.highest);
  return std::to_string(folds) + "-fold cross-validation over " + std::to_string(n) +
         " manually labeled issues, " +
         common::counted(static_cast<long long>(figures.size()), "fold assignment") +
         " (labels, at: the share of the issues each fold's model labels by its label thresholds, and the "
         "accuracy there)\n" +
         text_table(rows);
}

// What eval says of the final labels it left out (none: nothing).
std::string left_out_text(const model::LabeledIssues& labeled) {
  return labeled.out_of_scope == 0
             ? std::string()
             : "not evaluated on: " + common::counted(labeled.out_of_scope, "final label") +
                   " of issues a person put out of scope\n";
}

void eval_fold_assignments(const Context& ctx, const EvalOptions& o) {
  // A usage error, as --seed or --out beside --seeds is; 0 (no time split) is what --seeds does anyway.
  if (o.time_split.value_or(0) > 0) {
    throw CLI::ValidationError("--time-split",
                               "--seeds runs no time split (it does not depend on the fold assignment); run "
                               "the time split in an eval without --seeds");
  }
  auto db = ctx.open_db();
  auto progress = ctx.progress();
  const auto labeled = model::load_labeled_issues(*db);
  model::require_cases_to_learn(labeled, "eval");
  auto figures = model::evaluate_fold_assignments(
      labeled.cases, o.folds, *o.seeds, model::AxisTraining::standard(), o.jobs,
      [&](size_t done, size_t total, const model::FoldAssignmentFigures& last) {
        const std::string line = "eval: fold assignment " + std::to_string(done) + " of " +
                                 std::to_string(total) + " (seed " + std::to_string(last.seed) +
                                 ") done; accuracy symptom " + fixed(last.symptom.accuracy) +
                                 ", root cause " + fixed(last.root_cause.accuracy);
        done == total ? progress->finish(line) : progress->update(line);
      },
      o.labels);
  const int n = static_cast<int>(labeled.cases.size());
  auto json = model::fold_assignments_json(n, o.folds, figures);
  json["labeled_out_of_scope"] = labeled.out_of_scope;
  ctx.emit(json, left_out_text(labeled) + fold_assignments_text(n, o.folds, figures));
}

void eval(const Context& ctx, const EvalOptions& o) {
  if (o.seeds) return eval_fold_assignments(ctx, o);
  auto db = ctx.open_db();
  auto progress = ctx.progress();
  auto line = [](const model::FoldReport& r) {
    return "eval: fold " + std::to_string(r.done) + " of " + std::to_string(r.folds) +
           " done; accuracy so far " + "symptom " + fixed(r.symptom_accuracy) + ", root cause " +
           fixed(r.root_cause_accuracy) + " (" + std::to_string(r.held_out) + " issues held out)";
  };
  const auto labeled = model::load_labeled_issues(*db);
  model::require_cases_to_learn(labeled, "eval");
  const double share = o.time_split.value_or(0.8);
  // Planned first: a split that cannot train is refused before the cross-validation, not after it.
  std::optional<model::TimeSplit> split;
  // (Without labels, evaluate says so.)
  if (share > 0 && !labeled.cases.empty())
    split = model::plan_time_split(labeled.cases, share, model::AxisTraining::standard());
  auto e = model::evaluate(
      labeled.cases, o.folds, o.seed, model::AxisTraining::standard(), o.jobs,
      [&](const model::FoldReport& r) {
        r.done == r.folds ? progress->finish(line(r)) : progress->update(line(r));
      },
      o.labels);
  if (split) {
    progress->update("eval: time split (training on the oldest " + fixed(share, 2) + ")");
    e.time_split =
        model::evaluate_time_split(labeled.cases, *split, model::AxisTraining::standard(), o.labels);
    progress->finish("eval: time split done");
  }
  auto json = model::evaluation_json(e);
  json["labeled_out_of_scope"] = labeled.out_of_scope;
  const std::string text = left_out_text(labeled) + evaluation_text(e);
  if (o.out.empty()) return ctx.emit(json, text);
  common::write_file_atomically(o.out, json.dump(2) + "\n");
  ctx.emit_about_output(o.out, json, text);
}

}  // namespace

void add_classifier_commands(CLI::App& app, Context& ctx) {
  auto train_options = std::make_shared<TrainOptions>();
  auto* train_cmd =
      app.add_subcommand("train",
                         "Train the classifier (RE2 rules + fastText) on the final manual labels; "
                         "the ensemble weights (rules, similar issues, prior correction) and calibration are "
                         "chosen by 3-fold CV, and so is each axis's label threshold: the probability from "
                         "which it labels, so that its labels are right as often as asked.\n"
                         "Example: faultline train --root-cause-accuracy 0.9");
  train_cmd->add_option("--models", train_options->model_dir, "model directory (default: <db>.models)")
      ->check(not_empty());
  add_label_options(train_cmd, train_options->labels);
  train_cmd->callback([&ctx, train_options] { train(ctx, *train_options); });

  auto classify_options = std::make_shared<ClassifyOptions>();
  auto* classify_cmd =
      app.add_subcommand("classify",
                         "Predict scope, symptom and root cause of every issue; manual labels "
                         "stay in force and are never overwritten.\n"
                         "Example: faultline classify --json");
  classify_cmd->add_option("--models", classify_options->model_dir, "model directory (default: <db>.models)")
      ->check(not_empty());
  classify_cmd->callback([&ctx, classify_options] { classify(ctx, *classify_options); });

  auto eval_options = std::make_shared<EvalOptions>();
  auto* eval_cmd =
      app.add_subcommand("eval",
                         "Stratified K-fold cross-validation against the final manual labels, with "
                         "majority, rules-only and fastText-only baselines on the same folds.\n"
                         "Example: faultline eval --folds 10 --json\n"
                         "Example: faultline eval --folds 10 --seeds 1-6,8-31");
  eval_cmd->add_option("--folds", eval_options->folds, "number of folds")->check(whole_number_in(2, 100));
  auto* seed =
      eval_cmd->add_option("--seed", eval_options->seed, "seed of the fold assignment")->check(unsigned_64());
  eval_cmd
      ->add_option("--time-split", eval_options->time_split,
                   "also train on the issues created before this quantile of creation dates and test on "
                   "the newer ones (default 0.8; 0: skip)")
      ->check(number_in(0.0, 0.95));
  auto* out = eval_cmd->add_option(
      "--out", eval_options->out,
      "also write the JSON evaluation to this file (for 'faultline report --evaluation')");
  out->check(not_empty());
  eval_cmd
      ->add_option_function<std::string>(
          "--seeds",
          [eval_options](const std::string& text) {
            // A malformed list is a usage error (exit 2), as every other flag's is.
            try {
              eval_options->seeds = model::parse_seed_list(text);
            } catch (const Error& e) {
              throw CLI::ValidationError("--seeds", e.what());
            }
          },
          "cross-validate once per fold assignment (seeds and ranges, e.g. 1-6,8-31) and print each "
          "one's accuracy, macro-F1, kappa, surest-share accuracy and what its folds label by their own "
          "label thresholds (labels: the share; at: the accuracy there), with their mean, standard "
          "deviation (two or more), lowest and highest; no time split (it does not depend on the seed)")
      ->type_name("SEEDS")
      ->excludes(seed)
      ->excludes(out);
  eval_cmd
      ->add_option("--jobs", eval_options->jobs,
                   "threads: folds trained at once, and with --seeds several fold assignments at once "
                   "when there are more threads than folds (default: the number of cores); results do not "
                   "depend on it")
      ->check(whole_number_in(1, 256));
  add_label_options(eval_cmd, eval_options->labels);
  eval_cmd->callback([&ctx, eval_options] { eval(ctx, *eval_options); });
}

}  // namespace faultline::cli
