// Labeling sheets: CSV files that raters fill in, and their validated import as one batch.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "classifier/annotation/uncertain_queue.hpp"
#include "datasets/store/database.hpp"

namespace faultline::annotation {

enum class SheetSelection { kUnlabeled, kSample };

// Writes repo, number, url, title, text (a short excerpt), symptom, root_cause, note; the last three empty.
// kSample takes the issues kept in `sample_name`; kUnlabeled every issue without a final label. Returns the
// number of rows.
int export_label_sheet(datasets::Database& db, std::ostream& out, SheetSelection selection,
                       const std::string& sample_name);
// The same sheet for the uncertain queue (uncertain_queue.hpp), in its order.
int export_uncertain_sheet(datasets::Database& db, std::ostream& out, const UncertainQueue& queue);
// The same sheet for the issues named OWNER/NAME#NUMBER, in that order.
int export_issue_sheet(datasets::Database& db, std::ostream& out, const std::vector<std::string>& issue_keys);

struct LabelRow {
  int64_t issue_id = 0;
  std::string rater;  // the row's rater column, empty when the sheet has none
  std::string symptom;
  std::string root_cause;
  std::string note;
  std::string where;  // file:line
};
// Reads and validates a label CSV (known issue, taxonomy ids, both axes, no duplicates, consistent
// field counts) without writing anything. Rows with both label columns empty are counted in `blank`.
std::vector<LabelRow> read_label_csv(datasets::Database& db, const std::string& path, int* blank = nullptr);

struct LabelImport {
  int64_t batch_id = 0;
  int labeled = 0;
  int skipped_blank = 0;  // sheet rows the rater left empty
  int withdrawn = 0;      // with `replace`: the rater's earlier labels of issues the sheet does not label
};
// Validates every row (known issue, taxonomy ids, both axes, no duplicates, rater column consistent)
// before writing anything; then writes all rows as one batch. Errors name the file, line and value.
// `replace`: the sheet holds every label of the rater, so their earlier labels of issues it does not label
// (a row left blank, or none) are withdrawn in the same transaction; without it they stay.
LabelImport import_label_sheet(datasets::Database& db, const std::string& rater, const std::string& path,
                               bool replace = false);

// The provenance of a final label as the store keeps it and `export --what labels` writes it in the rater
// column: no person may be named so (an export read back would make every final label a rater's).
inline constexpr const char* kAgreed = "agreed";
inline constexpr const char* kAdjudicated = "adjudicated";

// Throws faultline::Error (`verb` first) unless `rater` is a rater of the store, or a name a new one may
// have: 1 to 64 ASCII letters, digits, '.', '_' or '-' with single spaces between words, another spelling
// than any stored rater's in more than case, and neither provenance above.
void require_rater_name(datasets::Database& db, const std::string& rater, const std::string& verb);
// Throws faultline::Error (`where` first) unless `name` may name an adjudicator: as a new rater's name.
void require_adjudicator_name(const std::string& name, const std::string& where);

}  // namespace faultline::annotation
