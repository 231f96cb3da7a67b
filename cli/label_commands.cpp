#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "classifier/annotation/label_audit.hpp"
#include "classifier/annotation/label_sheets.hpp"
#include "cli/commands.hpp"
#include "cli/text_table.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace faultline::cli {

namespace {

struct LabelOptions {
  std::string rater;
  std::string out;
  std::string sample;
  std::string queue;
  std::string file;
  std::string raters;
  double threshold = 0.8;
};

std::string audit_text(const annotation::AuditResult& a) {
  std::string text = "audit of " + std::to_string(a.n) + " issues labeled by every rater\n";
  text += "  joint (symptom + root cause): kappa " + fixed(a.joint.kappa) + "  95% CI [" +
          fixed(a.joint.ci_low) + ", " + fixed(a.joint.ci_high) + "]  observed " + fixed(a.joint.observed) +
          ", expected " + fixed(a.joint.expected) + "\n";
  text += "  symptom: kappa " + fixed(a.symptom.kappa) + "   root cause: kappa " + fixed(a.root_cause.kappa) +
          "\n";
  if (a.raters.size() > 2) text += "  Fleiss' kappa (joint, all raters): " + fixed(a.fleiss_joint) + "\n";
  text += "  disagreements: " + std::to_string(a.disagreements.size()) + "\n";
  for (const auto& d : a.disagreements) {
    std::string labels;
    for (const auto& l : d.labels) labels += (labels.empty() ? "" : " vs ") + l;
    text += "    " + d.issue + ": " + labels + (d.adjudicated ? "  [adjudicated]" : "") + "\n";
  }
  text += "  pending (awaiting adjudication): " + std::to_string(a.pending.size()) + ", of which " +
          std::to_string(a.partially_labeled.size()) + " labeled by only some raters" +
          (a.pending.empty() ? "" : " (export them with 'faultline label export --queue pending')") + "\n";
  for (const auto& key : a.partially_labeled) text += "    " + key + ": labeled by only some raters\n";
  text += "  gate: " + a.gate + " — " + a.gate_reason + "\n";
  if (a.gate == "pass") {
    text += "  final labels: " + std::to_string(a.promoted_agreed) + " agreed, " +
            std::to_string(a.promoted_adjudicated) + " adjudicated\n";
  }
  return text;
}

}  // namespace

void add_label_commands(CLI::App& app, Context& ctx) {
  static LabelOptions o;
  auto* label =
      app.add_subcommand("label", "Labeling sheets for raters: export to fill in, import when done.");
  label->require_subcommand(1);

  auto* exp =
      label->add_subcommand("export",
                            "Write a labeling sheet (CSV) for a rater.\n"
                            "Example: faultline label export --rater alice --sample main --out alice.csv");
  exp->add_option("--rater", o.rater, "who will fill it in")->required();
  exp->add_option("--out", o.out, "CSV file to write")->required();
  exp->add_option("--sample", o.sample, "the issues of this sample");
  exp->add_option("--queue", o.queue,
                  "'uncertain': the issues the classifier abstained on; 'pending': the issues the latest "
                  "audit left pending (disagreements and issues only some raters labeled); "
                  "'disagreements': only those the raters disagreed on")
      ->check(CLI::IsMember({"uncertain", "pending", "disagreements"}));
  exp->callback([&ctx] {
    auto db = ctx.open_db();
    std::ostringstream out;
    int rows = 0;
    if (o.queue == "pending" || o.queue == "disagreements") {
      auto queue = o.queue == "pending" ? annotation::AdjudicationQueue::kPending
                                        : annotation::AdjudicationQueue::kDisagreements;
      rows = annotation::export_issue_sheet(*db, out, annotation::adjudication_queue(*db, queue));
    } else {
      auto selection = !o.sample.empty()  ? annotation::SheetSelection::kSample
                       : !o.queue.empty() ? annotation::SheetSelection::kUncertain
                                          : annotation::SheetSelection::kUnlabeled;
      rows = annotation::export_label_sheet(*db, out, selection, o.sample);
    }
    common::write_file_atomically(o.out, out.str());
    ctx.emit({{"rows", rows}, {"out", o.out}, {"rater", o.rater}},
             "wrote " + std::to_string(rows) + " issues to " + o.out + " for " + o.rater + "\n");
  });

  auto* imp = label->add_subcommand(
      "import",
      "Import a rater's filled-in sheet as one batch, or nothing on any error.\n"
      "Example: faultline label import --rater rater_a datasets/snapshot/labels_rater_a.csv");
  imp->add_option("--rater", o.rater, "whose labels these are")->required();
  imp->add_option("file", o.file, "the CSV (repo,number,[rater],symptom,root_cause,[note])")->required();
  imp->callback([&ctx] {
    auto db = ctx.open_or_create_db();
    auto r = annotation::import_label_sheet(*db, o.rater, o.file);
    ctx.emit({{"batch", r.batch_id}, {"labeled", r.labeled}, {"blank", r.skipped_blank}},
             "imported batch " + std::to_string(r.batch_id) + " of " + o.rater + ": " +
                 std::to_string(r.labeled) + " labels (" + std::to_string(r.skipped_blank) +
                 " blank rows skipped); run 'faultline audit'\n");
  });

  auto* audit =
      app.add_subcommand("audit",
                         "Agreement of raters (Cohen's kappa on the joint label and per axis, "
                         "Fleiss' kappa for 3+); when kappa passes the threshold, agreed and "
                         "adjudicated labels become final and override the classifier.\n"
                         "Example: faultline audit --raters rater_a,rater_b --threshold 0.8 --json");
  audit->add_option("--raters", o.raters, "comma-separated raters (default: every rater in the store)");
  audit->add_option("--threshold", o.threshold, "kappa needed to accept the labels")
      ->check(CLI::Range(-1.0, 1.0));
  audit->callback([&ctx] {
    auto db = ctx.open_db();
    auto result = annotation::run_audit(*db, annotation::parse_raters(o.raters), o.threshold);
    ctx.emit(annotation::audit_json(result), audit_text(result));
  });

  auto* adj = app.add_subcommand("adjudicate",
                                 "Import final labels for disagreements (or any issue) from a label CSV "
                                 "whose rater column names the adjudicator, then re-run the last audit.\n"
                                 "Example: faultline adjudicate datasets/snapshot/labels_adjudicated.csv");
  adj->add_option("file", o.file, "the CSV")->required();
  adj->callback([&ctx] {
    auto db = ctx.open_db();
    auto r = annotation::import_adjudications(*db, o.file);
    nlohmann::json j = {{"imported", r.imported}};
    std::string text = "imported " + std::to_string(r.imported) + " adjudications\n";
    if (r.audited) {
      j["audit"] = annotation::audit_json(r.audit);
      text += audit_text(r.audit);
    } else {
      text += "no audit has run yet: run 'faultline audit' to promote labels\n";
    }
    ctx.emit(j, text);
  });
}

}  // namespace faultline::cli
