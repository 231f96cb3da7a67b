#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "classifier/annotation/label_audit.hpp"
#include "classifier/annotation/label_sheets.hpp"
#include "classifier/annotation/uncertain_queue.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/text_table.hpp"
#include "common/atomic_file.hpp"
#include "common/counted.hpp"
#include "common/error.hpp"
#include "common/one_line.hpp"

namespace faultline::cli {

namespace {

struct SheetExportOptions {
  std::string rater;
  std::string out;
  std::string sample;
  std::string queue;
};

struct SheetImportOptions {
  std::string rater;
  std::string file;
  bool replace = false;
};

struct AuditOptions {
  std::string raters;
  double threshold = 0.8;
};

struct AdjudicateOptions {
  std::string file;
};

// An axis whose every label is one category has no kappa (kappa.hpp).
std::string kappa_text(const annotation::Agreement& a) { return a.defined ? fixed(a.kappa) : "undefined"; }

std::string audit_text(const annotation::AuditResult& a) {
  std::string text = "audit of " + std::to_string(a.n) + " issues labeled by every rater\n";
  // Cohen's figures compare the first two raters; with more, say which two.
  const std::string pair = a.raters.size() > 2 ? " of " + a.raters[0] + " and " + a.raters[1] : "";
  text +=
      "  joint (symptom + root cause)" + pair + ": kappa " + kappa_text(a.joint) +
      (a.joint.defined ? "  95% CI [" + fixed(a.joint.ci_low) + ", " + fixed(a.joint.ci_high) + "]" : "") +
      "  observed " + fixed(a.joint.observed) + ", expected " + fixed(a.joint.expected) + "\n";
  text += "  symptom" + pair + ": kappa " + kappa_text(a.symptom) + "   root cause: kappa " +
          kappa_text(a.root_cause) + "\n";
  if (a.raters.size() > 2) text += "  Fleiss' kappa (joint, all raters): " + fixed(a.fleiss_joint) + "\n";
  text += "  disagreements: " + std::to_string(a.disagreements.size()) + "\n";
  for (const auto& d : a.disagreements) {
    std::string labels;
    for (const auto& l : d.labels) labels += (labels.empty() ? "" : " vs ") + l;
    text += "    " + d.issue + ": " + labels + (d.adjudicated ? "  [adjudicated]" : "") + "\n";
  }
  text += "  pending (awaiting adjudication): " + std::to_string(a.pending.size()) + ", of which " +
          std::to_string(a.partially_labeled.size()) + " labeled by only some raters" +
          (a.pending.empty()
               ? ""
               : " (export them with 'faultline label export --rater NAME --queue pending --out FILE')") +
          "\n";
  for (const auto& key : a.partially_labeled) text += "    " + key + ": labeled by only some raters\n";
  if (!a.out_of_scope.empty()) {
    text += "  not pending, put out of scope by a person (disagreements or labeled by only some raters): " +
            std::to_string(a.out_of_scope.size()) + "\n";
    for (const auto& key : a.out_of_scope) text += "    " + key + "\n";
  }
  text += "  gate: " + a.gate + " — " + a.gate_reason + "\n";
  if (a.gate == "pass") {
    text += "  final labels: " + std::to_string(a.promoted_agreed) + " agreed, " +
            std::to_string(a.promoted_adjudicated) + " adjudicated\n";
    if (a.withdrawn > 0) {
      text += "  final labels withdrawn: " + std::to_string(a.withdrawn) +
              " (issues an earlier audit made final that this one does not: the final labels are the latest "
              "audit's)\n";
    }
  } else if (a.withdrawn > 0) {
    text += "  final labels withdrawn: " + std::to_string(a.withdrawn) +
            " (an earlier audit's; adjudications are kept, and labels become final again when an audit "
            "passes)\n";
  }
  if (!a.overruled_agreements.empty()) {
    text += "  adjudications that overrule labels every rater agreed on: " +
            std::to_string(a.overruled_agreements.size()) + "\n";
    for (const auto& key : a.overruled_agreements) text += "    " + key + "\n";
  }
  return text;
}

}  // namespace

void add_label_commands(CLI::App& app, Context& ctx) {
  auto* label =
      app.add_subcommand("label", "Labeling sheets for raters: export to fill in, import when done.");
  label->require_subcommand(1);

  auto* exp =
      label->add_subcommand("export",
                            "Write a labeling sheet (CSV) for a rater.\n"
                            "Example: faultline label export --rater alice --sample main --out alice.csv");
  auto export_options = std::make_shared<SheetExportOptions>();
  exp->add_option("--rater", export_options->rater, "who will fill it in")->required()->check(not_empty());
  exp->add_option("--out", export_options->out, "CSV file to write")->required()->check(not_empty());
  auto* sample = exp->add_option("--sample", export_options->sample,
                                 "the issues of this sample (with neither --sample nor --queue: every issue "
                                 "without a final label)");
  sample->check(not_empty());
  exp->add_option(
         "--queue", export_options->queue,
         "'uncertain': the unlabeled issues the classifier abstained on, except those a person put "
         "out of scope or that are not screening candidates (unless a person put them in scope; an issue "
         "not screened since it came is counted apart), "
         "furthest under a label threshold first; 'pending': the "
         "issues the latest audit left pending (disagreements and issues only some raters labeled, but "
         "none a person put out of scope); "
         "'disagreements': only those the raters disagreed on")
      ->check(CLI::IsMember({"uncertain", "pending", "disagreements"}))
      ->excludes(sample);
  exp->callback([&ctx, export_options] {
    const auto& o = *export_options;
    auto db = ctx.open_db();
    annotation::require_rater_name(*db, o.rater, "label export");  // a name its import would refuse
    std::ostringstream out;
    int rows = 0;
    std::optional<annotation::UncertainQueue> uncertain;
    if (o.queue == "uncertain") {
      uncertain = annotation::uncertain_queue(*db);
      rows = annotation::export_uncertain_sheet(*db, out, *uncertain);
    } else if (o.queue == "pending" || o.queue == "disagreements") {
      auto queue = o.queue == "pending" ? annotation::AdjudicationQueue::kPending
                                        : annotation::AdjudicationQueue::kDisagreements;
      rows = annotation::export_issue_sheet(*db, out, annotation::adjudication_queue(*db, queue));
    } else {
      auto selection =
          !o.sample.empty() ? annotation::SheetSelection::kSample : annotation::SheetSelection::kUnlabeled;
      rows = annotation::export_label_sheet(*db, out, selection, o.sample);
    }
    common::write_file_atomically(o.out, out.str());
    nlohmann::json j = {{"rows", rows}, {"out", o.out}, {"rater", o.rater}};
    std::string text = "wrote " + common::counted(rows, "issue") + " to " + common::one_line(o.out) +
                       " for " + common::one_line(o.rater);
    if (uncertain) {
      j["abstained_excluded"] = uncertain->counts.abstained_excluded;
      j["abstained_unscreened"] = uncertain->counts.abstained_unscreened;
      j["unclassified"] = uncertain->unclassified;
      j["unclassified_unscreened"] = uncertain->unclassified_unscreened;
      if (const std::string left_out = annotation::left_out_clause(uncertain->counts); !left_out.empty())
        text += "; " + left_out;
      if (uncertain->unclassified) text += "; " + annotation::unclassified_clause(uncertain->unclassified);
      if (uncertain->unclassified_unscreened)
        text += "; " + annotation::unclassified_unscreened_clause(uncertain->unclassified_unscreened);
    }
    ctx.emit_about_output(o.out, j, text + "\n");
  });

  auto* imp = label->add_subcommand(
      "import",
      "Import a rater's filled-in sheet as one batch, or nothing on any error; when the latest audit counted "
      "this rater, it runs again with the new labels, in the same transaction. A new rater's name is ASCII "
      "letters, digits, '.', '_', '-' and single spaces, not a stored one's in another case, and not "
      "'agreed' "
      "or 'adjudicated'. --replace withdraws the rater's earlier labels the sheet leaves out.\n"
      "Example: faultline label import --rater rater_a datasets/snapshot/labels_rater_a.csv");
  auto import_options = std::make_shared<SheetImportOptions>();
  imp->add_option("--rater", import_options->rater, "whose labels these are")->required()->check(not_empty());
  imp->add_option(
         "file", import_options->file,
         "the CSV (repo,number,[rater],symptom,root_cause,[note]; an exported sheet's url, title and text "
         "columns are read past)")
      ->required();
  imp->add_flag("--replace", import_options->replace,
                "the sheet holds every label of this rater: their earlier labels of issues it does not label "
                "(rows left blank, or not in it) are withdrawn (without it they stay)");
  imp->callback([&ctx, import_options] {
    const auto& o = *import_options;
    // Labels are of issues in the store: on a missing one there is nothing to label.
    auto db = ctx.open_db();
    const annotation::RaterImport imported = annotation::import_rater_labels(*db, o.rater, o.file, o.replace);
    const annotation::LabelImport& r = imported.labels;
    nlohmann::json j = {{"batch", r.batch_id},
                        {"labeled", r.labeled},
                        {"blank", r.skipped_blank},
                        {"withdrawn", r.withdrawn}};
    std::string text = "imported batch " + std::to_string(r.batch_id) + " of " + common::one_line(o.rater) +
                       ": " + common::counted(r.labeled, "label") + " (" +
                       common::counted(r.skipped_blank, "blank row") + " skipped)" +
                       (o.replace ? "; " + common::counted(r.withdrawn, "earlier label") + " withdrawn" : "");
    if (imported.audit) {
      j["audit"] = annotation::audit_json(*imported.audit);
      text += "; the latest audit, which counts this rater, run again:\n" + audit_text(*imported.audit);
    } else {
      text += "; run 'faultline audit'\n";
    }
    ctx.emit(j, text);
  });

  auto* audit =
      app.add_subcommand("audit",
                         "Agreement of raters (Cohen's kappa on the joint label and per axis, "
                         "Fleiss' kappa for 3+); when kappa passes the threshold, agreed and "
                         "adjudicated labels become final and override the classifier; when it fails, "
                         "none is final until an audit passes.\n"
                         "Example: faultline audit --raters rater_a,rater_b --threshold 0.8 --json");
  auto audit_options = std::make_shared<AuditOptions>();
  audit->add_option("--raters", audit_options->raters,
                    "comma-separated raters (default: every rater in the store)");
  audit->add_option("--threshold", audit_options->threshold, "kappa needed to accept the labels")
      ->check(number_in(-1.0, 1.0));
  audit->callback([&ctx, audit_options] {
    auto db = ctx.open_db();
    auto result =
        annotation::run_audit(*db, annotation::parse_raters(audit_options->raters), audit_options->threshold);
    ctx.emit(annotation::audit_json(result), audit_text(result));
  });

  auto* adj = app.add_subcommand("adjudicate",
                                 "Import adjudications for disagreements (or any issue) from a label CSV "
                                 "whose rater column names the adjudicator, and re-run the last audit in the "
                                 "same transaction: they become final when it passes.\n"
                                 "Example: faultline adjudicate datasets/snapshot/labels_adjudicated.csv");
  auto adjudicate_options = std::make_shared<AdjudicateOptions>();
  adj->add_option("file", adjudicate_options->file, "the CSV")->required();
  adj->callback([&ctx, adjudicate_options] {
    auto db = ctx.open_db();
    auto r = annotation::import_adjudications(*db, adjudicate_options->file);
    nlohmann::json j = {{"imported", r.imported}};
    std::string text = "imported " + common::counted(r.imported, "adjudication") + "\n";
    if (r.audit) {
      j["audit"] = annotation::audit_json(*r.audit);
      text += audit_text(*r.audit);
    } else {
      text += "no audit has run yet: run 'faultline audit' to promote labels\n";
    }
    ctx.emit(j, text);
  });
}

}  // namespace faultline::cli
