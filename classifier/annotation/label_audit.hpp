// The audit of manual labels: agreement between raters, the gate that lets their labels override the
// classifier, adjudication of disagreements, and the promotion of labels to final.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "classifier/annotation/kappa.hpp"
#include "classifier/annotation/label_sheets.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/label_store.hpp"

namespace faultline::annotation {

struct Disagreement {
  int64_t issue_id = 0;
  std::string issue;                // owner/name#number
  std::vector<std::string> labels;  // "symptom/root_cause", one per rater in order
  bool adjudicated = false;
};

struct AuditResult {
  std::vector<std::string> raters;
  double threshold = 0.8;
  int n = 0;        // items labeled by every rater
  Agreement joint;  // on "symptom/root_cause": a difference on either axis is a disagreement
  Agreement symptom;
  Agreement root_cause;
  double fleiss_joint = 0;  // more than two raters only
  std::vector<Disagreement> disagreements;
  std::string gate;  // pass | fail
  std::string gate_reason;
  double gate_kappa = 0;  // Cohen's joint kappa for two raters, Fleiss' for more
  int promoted_agreed = 0;
  int promoted_adjudicated = 0;
  // Adjudications that set other labels than every rater agreed on: an adjudicator may settle any issue,
  // and where the raters agreed, saying so is all that shows it.
  std::vector<std::string> overruled_agreements;
  // Not final and awaiting an adjudicator: unadjudicated disagreements and issues only some raters labeled.
  std::vector<std::string> pending;
  // Such issues a person put out of scope (the issue's scope decision): settled by it, so not pending.
  std::vector<std::string> out_of_scope;
  std::vector<std::string> partially_labeled;  // the pending issues that only some raters labeled
  std::vector<datasets::FinalLabel> finals;    // what becomes final when the gate passes
  int withdrawn = 0;  // issues final before this audit and not after it (all of them when its gate fails)
  int64_t audit_id = 0;
};

// Audits `raters` (all raters in the store when empty; at least two) without writing anything.
AuditResult assess_labels(datasets::Database& db, std::vector<std::string> raters, double threshold);
// The same assessment for the raters and threshold of the latest recorded audit; none when none ran.
std::optional<AuditResult> assess_latest_audit(datasets::Database& db);

// Assesses, records the audit and rewrites the final labels: when the gate passes, agreed items and
// adjudicated items become final and the rest stay pending; when it fails, none is final (an earlier
// audit's final labels rest on labels this one found too far apart). Adjudications are kept either way.
// Throws, recording nothing, when the gate's kappa is undefined (every label one and the same).
AuditResult run_audit(datasets::Database& db, std::vector<std::string> raters, double threshold);

// Imports a rater's sheet (import_label_sheet), then re-runs the latest audit when it counted this rater,
// so that no final label rests on a label the rater has since changed.
struct RaterImport {
  LabelImport labels;
  std::optional<AuditResult> audit;  // the audit re-run, if any
};
RaterImport import_rater_labels(datasets::Database& db, const std::string& rater, const std::string& path,
                                bool replace = false);

// "alice,bob" → {"alice", "bob"}, empty parts dropped: --raters and the audit record use this form.
std::vector<std::string> parse_raters(const std::string& comma_separated);

// Imports adjudications (label CSV; the rater column names the adjudicator) and, in the same transaction,
// re-runs the latest audit so that the adjudicated items are promoted.
struct AdjudicationImport {
  int imported = 0;
  std::optional<AuditResult> audit;  // the audit re-run; none when no audit has run yet
};
AdjudicationImport import_adjudications(datasets::Database& db, const std::string& path);

// The issues an adjudicator must settle after the latest audit, as OWNER/NAME#NUMBER: kPending every
// pending one, kDisagreements only those the raters disagreed on. Error when no audit has run.
enum class AdjudicationQueue { kPending, kDisagreements };
std::vector<std::string> adjudication_queue(datasets::Database& db, AdjudicationQueue queue);

nlohmann::json audit_json(const AuditResult& audit);

}  // namespace faultline::annotation
