#include "classifier/annotation/label_sheets.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>

#include "common/ascii_case.hpp"
#include "common/counted.hpp"
#include "common/csv.hpp"
#include "common/error.hpp"
#include "common/joined.hpp"
#include "common/one_line.hpp"
#include "common/repository_name.hpp"
#include "common/utf8.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::annotation {

namespace {

std::string excerpt(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t cut = text.rfind(' ', limit);
  return text.substr(0, cut == std::string::npos ? common::utf8_prefix_length(text, limit) : cut) + " …";
}

// The columns of a label file: those read, and those a labeling sheet carries for the rater to read.
constexpr std::array<std::string_view, 6> kReadColumns = {"repo",    "number",     "rater",
                                                          "symptom", "root_cause", "note"};
constexpr std::array<std::string_view, 3> kSheetOnlyColumns = {"url", "title", "text"};

// Column positions looked up from the header, so sheets may reorder their columns. A column named twice or
// one faultline does not know is refused: a misspelt "note" would drop every note without a word.
std::map<std::string, size_t> header_index(const common::CsvRow& header, const std::string& path,
                                           const std::vector<std::string>& required) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < header.fields.size(); ++i) {
    const std::string& name = header.fields[i];
    if (name.empty())
      continue;  // a trailing comma, as spreadsheets save one: read_label_csv checks it is empty
    const auto known = [&](const auto& names) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    if (!known(kReadColumns) && !known(kSheetOnlyColumns)) {
      std::string read;
      for (std::string_view column : kReadColumns) read += (read.empty() ? "" : ", ") + std::string(column);
      // A spreadsheet set to a locale that separates by ';' or a tab saves the whole header as one column.
      const bool other_separator = name.find_first_of(";\t") != std::string::npos;
      throw Error(path + ":1: the header names the column '" + common::one_line(name) +
                  "', which faultline does not know (it reads " + read +
                  "; a sheet's url, title and text are for the rater); " +
                  (other_separator
                       ? "the sheet seems separated by ';' or tabs: save it as comma-separated CSV"
                       : "rename or remove it"));
    }
    if (!index.emplace(name, i).second)
      throw Error(path + ":1: the header names the column '" + name + "' twice");
  }
  for (const auto& name : required) {
    if (!index.count(name)) throw Error(path + ":1: the header lacks the column '" + name + "'");
  }
  return index;
}

int write_sheet(std::ostream& out, const std::vector<datasets::IssueRecord>& issues) {
  common::write_csv_row(out, {"repo", "number", "url", "title", "text", "symptom", "root_cause", "note"});
  for (const auto& issue : issues) {
    std::string text = excerpt(issue.body, 400);
    if (!issue.error_lines.empty()) text += " | error: " + issue.error_lines.front();
    common::write_csv_row(
        out, {issue.repo, std::to_string(issue.number), issue.url, issue.title, text, "", "", ""});
  }
  return static_cast<int>(issues.size());
}

}  // namespace

int export_label_sheet(datasets::Database& db, std::ostream& out, SheetSelection selection,
                       const std::string& sample_name) {
  std::set<int64_t> sampled;
  if (selection == SheetSelection::kSample) {
    for (const auto& e : datasets::load_sample(db, sample_name)) {
      if (e.status == "sampled") sampled.insert(e.issue_id);
    }
    if (sampled.empty()) throw Error("label export: sample '" + sample_name + "' is empty or does not exist");
  }
  auto finals = datasets::load_final_labels(db);
  std::vector<datasets::IssueRecord> rows;
  for (auto& issue : datasets::load_issues(db)) {
    if (selection == SheetSelection::kSample ? sampled.count(issue.id) > 0 : finals.count(issue.id) == 0)
      rows.push_back(std::move(issue));
  }
  return write_sheet(out, rows);
}

int export_uncertain_sheet(datasets::Database& db, std::ostream& out, const UncertainQueue& queue) {
  std::vector<datasets::IssueRecord> rows;
  for (int64_t id : queue.issue_ids) rows.push_back(datasets::load_issue(db, id));
  return write_sheet(out, rows);
}

int export_issue_sheet(datasets::Database& db, std::ostream& out,
                       const std::vector<std::string>& issue_keys) {
  std::vector<datasets::IssueRecord> rows;
  for (const auto& key : issue_keys) {
    auto [repo, number] = common::parse_issue_key(key);
    rows.push_back(datasets::load_issue(db, datasets::require_issue(db, repo, number, "label export")));
  }
  return write_sheet(out, rows);
}

std::vector<LabelRow> read_label_csv(datasets::Database& db, const std::string& path, int* blank) {
  const auto& taxonomy = taxonomy::Taxonomy::builtin();
  auto rows = common::read_csv_file(path);
  if (rows.empty()) throw Error(path + ": the file is empty (expected a header and labeled rows)");
  auto col = header_index(rows.front(), path, {"repo", "number", "symptom", "root_cause"});
  auto field = [&](const common::CsvRow& row, const std::string& name) -> std::string {
    auto it = col.find(name);
    return it == col.end() ? "" : row.fields[it->second];
  };
  std::vector<LabelRow> out;
  std::set<int64_t> seen;
  if (blank) *blank = 0;
  for (size_t r = 1; r < rows.size(); ++r) {
    const auto& row = rows[r];
    std::string where = path + ":" + std::to_string(row.line);
    if (row.fields.size() != rows.front().fields.size()) {
      throw Error(where + ": expected " + std::to_string(rows.front().fields.size()) + " fields, found " +
                  std::to_string(row.fields.size()));
    }
    for (size_t i = 0; i < row.fields.size(); ++i) {
      if (rows.front().fields[i].empty() && !row.fields[i].empty())
        throw Error(where + ": column " + std::to_string(i + 1) + " has no name in the header but holds '" +
                    common::one_line(row.fields[i]) + "'; name it or remove it");
    }
    std::string symptom = field(row, "symptom"), root_cause = field(row, "root_cause");
    if (symptom.empty() && root_cause.empty()) {
      if (blank) ++*blank;
      continue;
    }
    if (symptom.empty() || root_cause.empty()) {
      throw Error(where + ": a label needs one symptom and one root cause; '" +
                  (symptom.empty() ? "symptom" : "root_cause") + "' is empty");
    }
    if (!taxonomy.is_symptom(symptom))
      throw Error(where + ": unknown symptom '" + common::one_line(symptom) +
                  "' (the symptoms: " + common::joined(taxonomy.symptom_ids()) + ")");
    if (!taxonomy.is_root_cause(root_cause))
      throw Error(where + ": unknown root cause '" + common::one_line(root_cause) +
                  "' (the root causes: " + common::joined(taxonomy.root_cause_ids()) + ")");
    std::string number_text = field(row, "number");
    const auto number = common::issue_number_of(number_text);
    if (!number)
      throw Error(where + ": number '" + common::one_line(number_text) + "' is not an issue number");
    int64_t issue_id = datasets::require_issue(db, field(row, "repo"), *number, where);
    if (!seen.insert(issue_id).second) {
      throw Error(where + ": " + field(row, "repo") + "#" + number_text + " is labeled twice in this file");
    }
    out.push_back({issue_id, field(row, "rater"), symptom, root_cause, field(row, "note"), where});
  }
  // A sheet exported and never filled in: importing it would record a batch (or an adjudication run) of
  // nothing, which reads as if the work had been done.
  if (out.empty())
    throw Error(path + ": no row holds a label (" +
                (rows.size() == 1 ? std::string("a header only")
                                  : common::counted(static_cast<long long>(rows.size() - 1), "row") +
                                        ", symptom and root_cause empty in each") +
                "); nothing imported");
  return out;
}

namespace {

bool is_new_person_name(const std::string& name) {
  if (name.empty() || name.size() > 64 || name.front() == ' ' || name.back() == ' ') return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    if (!word && !(c == ' ' && name[i - 1] != ' ')) return false;
  }
  return true;
}

bool is_provenance(const std::string& name) {
  const std::string lower = common::ascii_lowercase(name);
  return lower == kAgreed || lower == kAdjudicated;
}

constexpr const char* kPersonNameRule =
    "1 to 64 ASCII letters, digits, '.', '_' or '-', with single spaces between words";

}  // namespace

void require_rater_name(datasets::Database& db, const std::string& rater, const std::string& verb) {
  if (rater.empty()) throw Error(verb + ": --rater must name the rater");
  if (!common::is_valid_utf8(rater)) throw Error(verb + ": --rater is not valid UTF-8 text");
  const auto stored = datasets::list_raters(db);
  // A rater already in the store is named as stored; a new one must not be another spelling of a stored one
  // (a second rater who agrees with the first on everything lifts the audit's kappa), so a new name is of
  // few enough characters that spellings can be compared: ASCII letters, digits, '.', '_', '-' and single
  // spaces between them (no comma: audit --raters is a comma-separated list), compared without case.
  if (std::find(stored.begin(), stored.end(), rater) != stored.end()) return;
  if (!is_new_person_name(rater))
    throw Error(verb + ": --rater '" + common::one_line(rater) +
                "' is not a name a new rater may have: " + kPersonNameRule);
  if (is_provenance(rater))
    throw Error(verb + ": --rater '" + rater +
                "' is the provenance of a final label, as 'export --what labels' writes it in the rater "
                "column, not a rater (is this an export of the final labels?): name the rater");
  for (const auto& other : stored) {
    if (common::ascii_lowercase(other) == common::ascii_lowercase(rater))
      throw Error(verb + ": --rater '" + rater + "' differs from the stored rater '" + other +
                  "' only in case: name the same rater the same way (or another one otherwise)");
  }
}

void require_adjudicator_name(const std::string& name, const std::string& where) {
  if (!is_new_person_name(name))
    throw Error(where + ": the adjudicator '" + common::one_line(name) +
                "' is not a name a person may have: " + kPersonNameRule);
  // `export --what labels` writes each final label's provenance in the rater column: read back as
  // adjudications, every label agreed on would become an adjudication by "agreed".
  if (is_provenance(name))
    throw Error(where + ": the rater column says '" + name +
                "', the provenance of a final label as 'export --what labels' writes it: this looks like an "
                "export of the final labels, not adjudications (name the adjudicator, or leave it empty)");
}

LabelImport import_label_sheet(datasets::Database& db, const std::string& rater, const std::string& path,
                               bool replace) {
  require_rater_name(db, rater, "label import");
  LabelImport result;
  auto rows = read_label_csv(db, path, &result.skipped_blank);
  for (const auto& row : rows) {
    if (!row.rater.empty() && row.rater != rater) {
      throw Error(row.where + ": the row is by rater '" + row.rater + "', but the import is for '" + rater +
                  "'");
    }
  }
  db.transaction([&] {
    result.batch_id = datasets::create_label_batch(db, rater, path);
    std::set<int64_t> labeled;
    for (const auto& row : rows) {
      datasets::put_manual_label(
          db, {row.issue_id, rater, row.symptom, row.root_cause, row.note, result.batch_id});
      labeled.insert(row.issue_id);
    }
    if (replace) result.withdrawn = datasets::remove_manual_labels_except(db, rater, labeled);
  });
  result.labeled = static_cast<int>(rows.size());
  return result;
}

}  // namespace faultline::annotation
