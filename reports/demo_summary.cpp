#include "reports/demo_summary.hpp"

#include <cstdio>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "classifier/annotation/uncertain_queue.hpp"
#include "common/error.hpp"
#include "common/one_line.hpp"
#include "common/strict_json.hpp"
#include "common/text_file.hpp"

namespace faultline::reports {

namespace {

using nlohmann::json;

// A step writes a few KiB; the bound keeps a device or a huge file out of memory.
constexpr size_t kLargestStepFile = 16 << 20;

json load_step(const std::string& work_dir, const std::string& step) {
  std::string path = work_dir + "/" + step + ".json";
  if (std::filesystem::exists(path) && !std::filesystem::is_regular_file(path))
    throw Error(path + ": not a regular file; a pipeline step writes its JSON to one");  // a FIFO would block
  json j = common::parse_json_strictly(common::read_text_file_at_most(path, kLargestStepFile), path);
  if (!j.is_object()) throw Error(path + ": not the JSON object a pipeline step writes");
  return j;
}

struct NotACount : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A count a step wrote: a whole number from 0 to what an int holds (a hand-edited 1e20 printed as a
// negative count).
int whole(const json& value) {
  if (!value.is_number_unsigned() ||
      value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int>::max()))
    throw NotACount(value.dump());
  return value.get<int>();
}

// Text a step wrote, on one line with its escapes and controls written out, as every message prints text.
std::string text(const json& value) { return common::one_line(value.get<std::string>()); }

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
  int agreed = whole(audit.at("promoted").at("agreed")),
      adjudicated = whole(audit.at("promoted").at("adjudicated"));
  std::string n = std::to_string(whole(ev.at("folds")));
  return {
      "issues:       " + std::to_string(whole(imp.at("issues"))) + " in the store, " +
          std::to_string(whole(scr.at("candidates"))) + " candidates after screening (" +
          std::to_string(whole(scr.at("scope_decisions"))) + " screened by a recorded scope decision, " +
          std::to_string(whole(scr.at("overriding_rules"))) + " overriding the rules), sample '" +
          text(smp.at("name")) + "' (" + text(smp.at("method")) + ")",
      "labels:       rater_a " + std::to_string(whole(a.at("labeled"))) + ", rater_b " +
          std::to_string(whole(b.at("labeled"))) + "; audit on " + std::to_string(whole(audit.at("n"))) +
          " issues: kappa " + fixed3(audit.at("kappa_joint")) + " (95% CI " + fixed3(ci.at(0)) + "-" +
          fixed3(ci.at(1)) + "), gate " + text(audit.at("gate")),
      "final labels: " + std::to_string(agreed) + " agreed + " + std::to_string(adjudicated) +
          " adjudicated = " + std::to_string(agreed + adjudicated) + "; " +
          std::to_string(audit.at("pending").size()) + " pending; " +
          std::to_string(audit.at("out_of_scope").size()) +
          " left unsettled as a person put them out of scope",
      "classifier:   model " + text(train.at("version")) + ", trained on " +
          std::to_string(whole(train.at("labeled"))) + " labels (" +
          std::to_string(whole(train.at("scoped"))) + " with a scope decision)",
      "  " + n + "-fold CV:  symptom " + axis_figures(ev.at("symptom")) + "; root cause " +
          axis_figures(ev.at("root_cause")),
      "  baselines:  accuracy symptom/root cause: " + baseline_pair(ev.at("baselines"), "rules") + ", " +
          baseline_pair(ev.at("baselines"), "fasttext") + ", " +
          baseline_pair(ev.at("baselines"), "majority"),
      "  time split: " + std::to_string(whole(ev.at("time_split").at("train"))) + " older train, " +
          std::to_string(whole(ev.at("time_split").at("test"))) + " newer test: symptom " +
          axis_figures(ev.at("time_split").at("symptom")) + "; root cause " +
          axis_figures(ev.at("time_split").at("root_cause")),
      "predictions:  " + std::to_string(whole(cls.at("classified"))) + " issues classified; " +
          std::to_string(whole(cls.at("manual"))) + " keep their manual label; " +
          annotation::queue_clause({.manual = whole(cls.at("manual")),
                                    .queued = whole(cls.at("queued")),
                                    .abstained_excluded = whole(cls.at("abstained_excluded")),
                                    .abstained_unscreened = whole(cls.at("abstained_unscreened"))}),
      "suite:        " + text(suite.at("summary")) +
          (suite.at("healthy").get<bool>() ? "" : " (FAILURES: see " + common::one_line(w) + "/suite.json)"),
      "report:       " + common::one_line(w) + "/report/index.html (" +
          std::to_string(rep.at("files").size()) + " files, " + std::to_string(whole(rep.at("cases"))) +
          " labeled issues: " + std::to_string(whole(rep.at("cases_with_source_reproducer"))) +
          " with a reproducer modeled on them; " + std::to_string(whole(rep.at("root_causes_reproduced"))) +
          " of their " + std::to_string(whole(rep.at("root_causes_labeled"))) +
          " root causes have a reproducer that reproduced in the latest suite run)",
      "finding:      " + text(rep.at("findings").at(0)),
  };
}

}  // namespace

std::vector<std::string> demo_summary(const std::string& work_dir) {
  try {
    return summarize(work_dir);
  } catch (const json::exception& e) {
    throw Error(work_dir + ": a pipeline step's JSON lacks what the summary needs (" + e.what() + ")");
  } catch (const NotACount& e) {
    throw Error(work_dir +
                ": a pipeline step's JSON holds a count that is not a whole number from 0 to 2147483647 (" +
                common::one_line(e.what()) + ")");
  }
}

}  // namespace faultline::reports
