#include "tests/bench/bench_table.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace faultline::bench {

namespace {

using nlohmann::json;

double figure(const json& results, const std::string& group, const std::string& name) {
  if (!results.contains(group) || !results[group].contains(name) || !results[group][name].is_number())
    throw Error("bench results: no figure " + group + "." + name + " (run ./run bench again)");
  return results[group][name].get<double>();
}

// One number in a short pattern: the text around it goes outside the call (64 characters at most).
std::string format(const char* pattern, double v) {
  char b[64];
  std::snprintf(b, sizeof b, pattern, v);
  return b;
}

// 21900.4 → "21,900": rates are read more easily with separators.
std::string thousands(double v) {
  std::string digits = format("%.0f", v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// The CLI's seconds for the three models of the baseline (scope, symptom, root cause), summed from
// the per-model figures; the dimension model (root_cause.group) is faultline's own fourth model.
double three_model_seconds(const json& results, const std::string& group, const std::string& name) {
  double sum = 0;
  for (const char* model : {"scope", "symptom", "root_cause"}) {
    if (!results.contains(group) || !results[group].contains(name) || !results[group][name].contains(model) ||
        !results[group][name][model].is_number())
      throw Error("bench results: no figure " + group + "." + name + "." + model +
                  " (run ./run bench again)");
    sum += results[group][name][model].get<double>();
  }
  return sum;
}

struct Row {
  std::string measure, value, baseline, ratio;
};

// A command run on 10,000 and 100,000 issues: the growth of its time and whether its memory grew.
Row scaled(const json& r, const std::string& command, const std::string& what) {
  double t10 = figure(r, command, "seconds_10k"), t100 = figure(r, command, "seconds_100k");
  return {"`" + command + "` on 10,000 → 100,000 " + what + " (whole process)",
          format("%.2f", t10) + " → " + format("%.2f s", t100) + "; peak " +
              format("%.0f", figure(r, command, "peak_mib_10k")) + " → " +
              format("%.0f MiB", figure(r, command, "peak_mib_100k")),
          "10.00× the time if linear", format("%.2f×", t100 / t10)};
}

// "accuracy / macro-F1 / kappa" of one axis's figures in the results.
std::string accuracy_f1_kappa(const json& r, const std::string& group) {
  return format("%.3f / ", figure(r, group, "accuracy")) + format("%.3f / ", figure(r, group, "macro_f1")) +
         format("%.3f", figure(r, group, "kappa"));
}

// The classifier on one axis: its figures from `eval --folds 10` beside the first generation's (when its
// second was asked for, on the same corpus and folds) and the targets that request set; which were met.
struct AxisGoal {
  const char* axis;  // "symptom" | "root_cause"
  const char* name;
  const char* top;  // the share of the most confident issues whose accuracy has a target
  double first_accuracy, first_macro_f1, first_kappa;
  double macro_f1, kappa, top_accuracy;  // targets (at least)
};
constexpr AxisGoal kSymptomGoal{"symptom", "symptom", "60", 0.838, 0.838, 0.795, 0.87, 0.85, 0.95};
constexpr AxisGoal kRootCauseGoal{"root_cause", "root cause", "40", 0.589, 0.508, 0.535, 0.62, 0.62, 0.85};

// `figures` names the results' group of figures ("accuracy_" for seed 7, "thirty_" for the mean of thirty
// fold assignments) and `source` says where they came from.
Row accuracy_row(const json& r, const AxisGoal& g, const std::string& figures, const std::string& source) {
  const std::string group = figures + g.axis, top = std::string("top_") + g.top + "_accuracy";
  const double f1 = figure(r, group, "macro_f1"), kappa = figure(r, group, "kappa"),
               top_accuracy = figure(r, group, top);
  std::string met, missed;
  struct Check {
    std::string name;
    double value, target;
  };
  for (const Check& c : {Check{"macro-F1", f1, g.macro_f1}, Check{"kappa", kappa, g.kappa},
                         Check{"top " + std::string(g.top) + "%", top_accuracy, g.top_accuracy}}) {
    std::string& list = c.value >= c.target ? met : missed;
    list += (list.empty() ? "" : ", ") + c.name;
  }
  return {"classifier, " + source + ": " + g.name + " accuracy / macro-F1 / kappa / accuracy of the " +
              g.top + "% it is surest of",
          accuracy_f1_kappa(r, group) + format(" / %.3f", top_accuracy),
          format("first generation %.3f / ", g.first_accuracy) + format("%.3f / ", g.first_macro_f1) +
              format("%.3f; targets macro-F1 ≥ ", g.first_kappa) + format("%.2f, kappa ≥ ", g.macro_f1) +
              format("%.2f, top ", g.kappa) + g.top + format("%% ≥ %.2f", g.top_accuracy),
          "met: " + (met.empty() ? "none" : met) + "; not met: " + (missed.empty() ? "none" : missed)};
}

}  // namespace

std::string render_table(const json& r) {
  std::vector<Row> rows;
  double requests = figure(r, "mining", "requests"), naive = figure(r, "mining", "baseline_requests");
  rows.push_back({"mining 10,000 issues + 50,000 comments (fake GitHub on 127.0.0.1): requests",
                  thousands(requests), thousands(naive) + " with per-issue comment requests",
                  format("%.1f× fewer", naive / requests)});
  double wall = figure(r, "mining", "wall_s"), naive_wall = figure(r, "mining", "baseline_wall_s");
  rows.push_back({"… wall time per 10,000 issues", format("%.1f s", wall),
                  format("%.1f s per-issue baseline", naive_wall),
                  format("%.1f× faster", naive_wall / wall)});
  double cpu = figure(r, "mining", "cpu_s"), naive_cpu = figure(r, "mining", "baseline_cpu_s");
  rows.push_back({"… CPU time of the miner per 10,000 issues", format("%.1f s", cpu),
                  format("%.1f s per-issue baseline", naive_cpu), format("%.1f× less", naive_cpu / cpu)});
  rows.push_back({"… refresh without changes",
                  format("%.0f requests", figure(r, "mining", "refresh_requests")),
                  format("%.0f answered 304", figure(r, "mining", "refresh_not_modified")),
                  format("%.2f s", figure(r, "mining", "refresh_s"))});

  double train = figure(r, "train", "seconds"), cli_train = figure(r, "train", "fasttext_cli_seconds");
  double cli_train3 = three_model_seconds(r, "train", "fasttext_cli_seconds_by_model");
  rows.push_back(
      {"`train` on the bundled corpus (whole process, CV-chosen parameters)",
       format("%.2f s", train) + format(", peak %.0f MiB", figure(r, "train", "peak_mib")),
       "`fasttext supervised`, the three final models (same settings): " + format("%.2f s; ×", cli_train3) +
           format("%.0f", figure(r, "train", "fasttext_cli_models")) +
           " with the dimension model: " + format("%.2f s", cli_train),
       format("%.2f× (target ≤ 2.5); ", train / cli_train3) + format("%.2f× the four", train / cli_train)});
  double eval = figure(r, "eval", "seconds"), eval_budget = figure(r, "eval", "budget_s");
  const std::string seed_7 = "`eval --folds 10` (fold seed 7)";
  rows.push_back(accuracy_row(r, kSymptomGoal, "accuracy_", seed_7));
  rows.push_back(accuracy_row(r, kRootCauseGoal, "accuracy_", seed_7));
  const std::string thirty = "`eval --folds 10 --seeds 1-6,8-31`, the mean of " +
                             format("%.0f", figure(r, "thirty", "fold_assignments")) + " fold assignments";
  rows.push_back(accuracy_row(r, kSymptomGoal, "thirty_", thirty));
  rows.push_back(accuracy_row(r, kRootCauseGoal, "thirty_", thirty));
  rows.push_back(
      {"… the time split (trained on the older 80% of dated issues, tested on the newer): symptom; root "
       "cause accuracy / macro-F1 / kappa",
       accuracy_f1_kappa(r, "time_split_symptom") + "; " + accuracy_f1_kappa(r, "time_split_root_cause"), "—",
       "—"});
  rows.push_back({"`eval --folds 10` on the bundled corpus (whole process)",
                  format("%.2f s", eval) + format(", peak %.0f MiB", figure(r, "eval", "peak_mib")),
                  format("budget %.0f s", eval_budget), format("%.2f of budget", eval / eval_budget)});

  double n = figure(r, "classify", "fasttext_cli_documents");
  double classify = figure(r, "classify", "seconds_100k"),
         cli = figure(r, "classify", "fasttext_cli_seconds_100k"),
         cli3 = three_model_seconds(r, "classify", "fasttext_cli_seconds_100k_by_model");
  rows.push_back({"`classify` 100,000 issues (whole process: store in, predictions stored)",
                  thousands(n / classify) + " issues/s" +
                      format(", peak %.0f MiB", figure(r, "classify", "peak_mib_100k")),
                  "`fasttext predict-prob` on the same documents, the three models: " + thousands(n / cli3) +
                      " issues/s; ×" + format("%.0f", figure(r, "classify", "fasttext_cli_models")) +
                      " with the dimension model: " + thousands(n / cli) + " issues/s" +
                      format(", peak %.0f MiB", figure(r, "classify", "fasttext_cli_peak_mib")),
                  format("%.2f× the CLI's time (target ≤ 1.0); ", classify / cli3) +
                      format("%.2f× the four's", classify / cli)});
  double classify_cpu = figure(r, "classify", "cpu_seconds_100k");
  double cli_cpu = figure(r, "classify", "fasttext_cli_cpu_seconds_100k");
  rows.push_back({"… CPU time of the same runs (user + system, all cores; the CLI running its four models)",
                  format("%.2f s", classify_cpu), format("%.2f s", cli_cpu),
                  format("%.2f× the CLI's CPU time", classify_cpu / cli_cpu)});
  rows.push_back(
      {"… classify in memory, one core (bundled issues repeated; median of 5 rounds of 20,000)",
       thousands(figure(r, "classify_in_memory", "per_s")) + " issues/s",
       "rules alone " + thousands(figure(r, "classify_in_memory", "rules_only_per_s")) + " issues/s", "—"});
  rows.push_back(scaled(r, "import", "corpus records"));
  rows.push_back(scaled(r, "screen", "issues"));
  rows.push_back(scaled(r, "classify", "issues"));
  rows.push_back(scaled(r, "report", "labeled issues"));
  double report = figure(r, "report", "seconds_100k"), report_peak = figure(r, "report", "peak_mib_100k");
  rows.push_back(
      {"`report` of 100,000 labeled issues, all formats (whole process)",
       format("%.2f s", report) + format(", peak %.0f MiB", report_peak), "budget 3 s, 128 MiB",
       format("%.2f of the time, ", report / 3) + format("%.2f of the memory", report_peak / 128)});

  std::string table = "| measure | value | baseline / budget | ratio |\n|---|---|---|---|\n";
  for (const auto& row : rows)
    table += "| " + row.measure + " | " + row.value + " | " + row.baseline + " | " + row.ratio + " |\n";
  return table;
}

namespace {

std::pair<size_t, size_t> table_bounds(const std::string& readme) {
  size_t begin = readme.find(kTableBegin), end = readme.find(kTableEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin)
    throw Error(std::string("README.md: no benchmark table between '") + kTableBegin + "' and '" + kTableEnd +
                "'");
  begin = readme.find('\n', begin) + 1;
  return {begin, end};
}

}  // namespace

std::string table_in(const std::string& readme) {
  auto [begin, end] = table_bounds(readme);
  return readme.substr(begin, end - begin);
}

std::string with_table(const std::string& readme, const std::string& table) {
  auto [begin, end] = table_bounds(readme);
  return readme.substr(0, begin) + table + readme.substr(end);
}

}  // namespace faultline::bench
