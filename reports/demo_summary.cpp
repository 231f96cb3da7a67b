#include "reports/demo_summary.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "classifier/annotation/uncertain_queue.hpp"
#include "common/error.hpp"
#include "common/text_file.hpp"

namespace faultline::reports {

namespace {

using nlohmann::json;

json load_step(const std::string& work_dir, const std::string& step) {
  std::string path = work_dir + "/" + step + ".json";
  json j = json::parse(common::read_text_file(path), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw Error(path + ": not the JSON object a pipeline step writes");
  return j;
}

std::string fixed3(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", x);
  return buffer;
}

std::string axis_figures(const json& axis) {
  return "acc " + fixed3(axis.at("accuracy")) + " macro-F1 " + fixed3(axis.at("macro_f1")) + " kappa " +
         fixed3(axis.at("kappa"));
}

std::string baseline_pair(const json& baselines, const char* name) {
  const json& b = baselines.at(name);
  return std::string(name == std::string("fasttext") ? "fastText" : name) + " " +
         fixed3(b.at("symptom").at("accuracy")) + "/" + fixed3(b.at("root_cause").at("accuracy"));
}

std::vector<std::string> summarize(const std::string& w) {
  json imp = load_step(w, "import"), scr = load_step(w, "screen"), smp = load_step(w, "sample"),
       a = load_step(w, "rater_a"), b = load_step(w, "rater_b"), adj = load_step(w, "adjudicate"),
       train = load_step(w, "train"), cls = load_step(w, "classify"), ev = load_step(w, "eval"),
       suite = load_step(w, "suite"), rep = load_step(w, "report");
  const json& audit = adj.at("audit");
  const json& ci = audit.at("kappa_joint_ci95");
  int agreed = audit.at("promoted").at("agreed"), adjudicated = audit.at("promoted").at("adjudicated");
  std::string n = std::to_string(ev.at("folds").get<int>());
  return {
      "issues:       " + std::to_string(imp.at("issues").get<int>()) + " in the store, " +
          std::to_string(scr.at("candidates").get<int>()) + " candidates after screening (" +
          std::to_string(scr.at("scope_decisions").get<int>()) + " recorded scope decisions, " +
          std::to_string(scr.at("overriding_rules").get<int>()) + " overriding the rules), sample '" +
          smp.at("name").get<std::string>() + "' (" + smp.at("method").get<std::string>() + ")",
      "labels:       rater_a " + std::to_string(a.at("labeled").get<int>()) + ", rater_b " +
          std::to_string(b.at("labeled").get<int>()) + "; audit on " +
          std::to_string(audit.at("n").get<int>()) + " issues: kappa " + fixed3(audit.at("kappa_joint")) +
          " (95% CI " + fixed3(ci.at(0)) + "-" + fixed3(ci.at(1)) + "), gate " +
          audit.at("gate").get<std::string>(),
      "final labels: " + std::to_string(agreed) + " agreed + " + std::to_string(adjudicated) +
          " adjudicated = " + std::to_string(agreed + adjudicated) + "; " +
          std::to_string(audit.at("pending").size()) + " pending",
      "classifier:   model " + train.at("version").get<std::string>() + ", trained on " +
          std::to_string(train.at("labeled").get<int>()) + " labels (" +
          std::to_string(train.at("scoped").get<int>()) + " with a scope decision)",
      "  " + n + "-fold CV:  symptom " + axis_figures(ev.at("symptom")) + "; root cause " +
          axis_figures(ev.at("root_cause")),
      "  baselines:  accuracy symptom/root cause: " + baseline_pair(ev.at("baselines"), "rules") + ", " +
          baseline_pair(ev.at("baselines"), "fasttext") + ", " +
          baseline_pair(ev.at("baselines"), "majority"),
      "  time split: " + std::to_string(ev.at("time_split").at("train").get<int>()) + " older train, " +
          std::to_string(ev.at("time_split").at("test").get<int>()) + " newer test: symptom " +
          axis_figures(ev.at("time_split").at("symptom")) + "; root cause " +
          axis_figures(ev.at("time_split").at("root_cause")),
      "predictions:  " + std::to_string(cls.at("classified").get<int>()) + " issues classified; " +
          std::to_string(cls.at("manual").get<int>()) + " keep their manual label; " +
          annotation::queue_clause({.manual = cls.at("manual").get<int>(),
                                    .queued = cls.at("queued").get<int>(),
                                    .abstained_excluded = cls.at("abstained_excluded").get<int>(),
                                    .abstained_unscreened = cls.at("abstained_unscreened").get<int>()}),
      "suite:        " + suite.at("summary").get<std::string>() +
          (suite.at("healthy").get<bool>() ? "" : " (FAILURES: see " + w + "/suite.json)"),
      "report:       " + w + "/report/index.html (" + std::to_string(rep.at("files").size()) + " files, " +
          std::to_string(rep.at("cases").get<int>()) +
          " labeled issues: " + std::to_string(rep.at("cases_with_source_reproducer").get<int>()) +
          " with a reproducer modeled on them; " +
          std::to_string(rep.at("root_causes_reproduced").get<int>()) + " of their " +
          std::to_string(rep.at("root_causes_labeled").get<int>()) +
          " root causes have a reproducer that reproduced in the latest suite run)",
      "finding:      " + rep.at("findings").at(0).get<std::string>(),
  };
}

}  // namespace

std::vector<std::string> demo_summary(const std::string& work_dir) {
  try {
    return summarize(work_dir);
  } catch (const json::exception& e) {
    throw Error(work_dir + ": a pipeline step's JSON lacks what the summary needs (" + e.what() + ")");
  }
}

}  // namespace faultline::reports
