#include "datasets/store/snapshot.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

#include "common/clock.hpp"
#include "common/csv.hpp"
#include "common/error.hpp"
#include "common/issue_url.hpp"
#include "common/joined.hpp"
#include "common/json_fields.hpp"
#include "common/one_line.hpp"
#include "common/repository_name.hpp"
#include "common/strict_json.hpp"
#include "common/text_file.hpp"
#include "datasets/store/issue_store.hpp"

namespace faultline::datasets {

namespace {

using nlohmann::json;

// How far under kLongestRecordBytes a line must be for its exported form (its absent fields added, its
// text escaped as export escapes it) to be measured before it is taken.
constexpr size_t kExportSlackBytes = size_t{1} << 20;

std::vector<std::string> string_list(const json& record, const char* field, const std::string& where) {
  if (!record.contains(field)) return {};
  const json& node = record.at(field);
  if (!node.is_array()) throw Error(where + ": field '" + field + "' must be a list of strings");
  std::vector<std::string> out;
  for (const auto& item : node) {
    if (!item.is_string()) throw Error(where + ": field '" + field + "' must be a list of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

// An optional date field: "", "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SSZ" (common::timestamp_form).
std::string timestamp(const json& record, const char* field, const std::string& where) {
  std::string value = common::json_optional_string(record, field, where);
  if (!value.empty() && common::timestamp_form(value) == common::TimestampForm::kNeither) {
    throw Error(where + ": " + field + " '" + value +
                "' is not a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ) from 1970 on");
  }
  return value;
}

}  // namespace

IssueRecord parse_record(const std::string& json_line, const std::string& where) {
  const json record = common::parse_json_strictly(json_line, where);
  if (!record.is_object()) throw Error(where + ": a record must be a JSON object");
  // A key the format does not have is refused, not skipped: a misspelled "scope" dropped a person's decision
  // without a word.
  static const std::vector<std::string> kFields = {
      "repo", "number",      "url", "state",      "created",         "updated", "labels",      "title",
      "body", "error_lines", "env", "discussion", "discussion_from", "scope",   "scope_reason"};
  for (const auto& [key, value] : record.items()) {
    if (std::find(kFields.begin(), kFields.end(), key) == kFields.end())
      throw Error(where + ": '" + common::one_line_cut(key, common::kShownKeyBytes) +
                  "' is not a field of a corpus record (the fields: " + common::joined(kFields) + ")");
  }
  IssueRecord r;
  r.repo = common::json_string(record, "repo", where);
  common::require_repository_name(r.repo, where);
  if (!record.contains("number") || !record.at("number").is_number_integer() ||
      record.at("number").get<int64_t>() <= 0) {
    throw Error(where + ": field 'number' must be a positive integer");
  }
  r.number = record.at("number").get<int64_t>();
  r.url = common::json_optional_string(record, "url", where);
  if (r.url.empty()) {
    r.url = common::issue_url(r.repo, r.number);
  } else {
    common::require_issue_url(r.url, r.number, where, "url");
  }
  r.state = common::json_string(record, "state", where);
  if (r.state != "open" && r.state != "closed") {
    throw Error(where + ": state '" + r.state + "' must be 'open' or 'closed'");
  }
  r.created = timestamp(record, "created", where);
  r.updated = timestamp(record, "updated", where);
  if (!common::not_before(r.updated, r.created))
    throw Error(where + ": updated '" + r.updated + "' is before created '" + r.created + "'");
  r.labels = string_list(record, "labels", where);
  r.title = common::json_string(record, "title", where);
  r.body = common::json_optional_string(record, "body", where);
  r.error_lines = string_list(record, "error_lines", where);
  r.env = common::json_optional_string(record, "env", where);
  r.discussion = common::json_optional_string(record, "discussion", where);
  const std::string from = common::json_optional_string(record, "discussion_from", where);
  if (!from.empty() && from != "comments")
    throw Error(where + ": discussion_from '" + common::one_line_cut(from, common::kShownKeyBytes) +
                "' must be 'comments' (the discussion is the issue's comments) or absent");
  r.discussion_is_comments = from == "comments";
  std::string scope = common::json_optional_string(record, "scope", where);
  if (!scope.empty()) {
    if (scope != "in" && scope != "out") throw Error(where + ": scope '" + scope + "' must be 'in' or 'out'");
    r.scope = scope;
    r.scope_reason = common::json_optional_string(record, "scope_reason", where);
  } else if (!common::json_optional_string(record, "scope_reason", where).empty()) {
    throw Error(where +
                ": scope_reason is given without a scope ('in' or 'out'), which it is the reason for");
  }
  return r;
}

void read_snapshot(const std::string& path,
                   const std::function<void(IssueRecord&&, const std::string& where)>& record) {
  std::set<std::string> seen;  // keys only, the name folded (one repository in any case): a few dozen bytes
  common::for_each_line(path, kLongestRecordBytes, [&](const std::string& line, int number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) return;
    std::string where = path + ":" + std::to_string(number);
    IssueRecord r = parse_record(line, where);
    // Export writes the fields a record left out and escapes text its own way: a record near the limit
    // could come back as a line import refuses. Measured as export writes it, so that export then import
    // always reads back.
    if (line.size() > kLongestRecordBytes - kExportSlackBytes) {
      std::ostringstream exported;
      write_issues_jsonl(exported, {r});
      if (exported.str().size() > kLongestRecordBytes + 1)  // the line and its newline
        throw Error(where + ": the record takes " + std::to_string(exported.str().size() - 1) +
                    " bytes as export writes it, more than the " + std::to_string(kLongestRecordBytes) +
                    " a record may take; refused");
    }
    if (!seen.insert(common::folded_repository_name(r.key())).second)
      throw Error(where + ": " + r.key() + " appears twice in the file");
    record(std::move(r), where);
  });
  if (seen.empty()) throw Error(path + ": no records (the file has no line that is not blank)");
}

std::vector<IssueRecord> read_snapshot(const std::string& path) {
  std::vector<IssueRecord> records;
  read_snapshot(path, [&](IssueRecord&& r, const std::string&) { records.push_back(std::move(r)); });
  return records;
}

ImportSummary import_snapshot(Database& db, const std::string& path) {
  ImportSummary summary;
  db.keep_temporary_files_in_memory();
  db.transaction([&] {
    OutdatedResultCounter outdated(db);
    IssueWriter writer(db);
    std::unordered_map<int64_t, std::string> written_as;  // by issue id: the key its record gave
    read_snapshot(path, [&](IssueRecord&& r, const std::string& where) {
      // An export gives a mined issue its comments as discussion: read back into a store holding that
      // issue's comments, they stay the source, so those mined later are read too (stored as the issue's own,
      // the text froze the discussion as it was).
      if (r.discussion_is_comments) {
        const std::optional<int64_t> stored = find_issue(db, r.repo, r.number);
        if (stored && !comment_discussion(db, *stored).empty()) r.discussion.clear();
      }
      const UpsertResult written = writer.upsert(r);
      if (const auto [earlier, first] = written_as.emplace(written.id, r.key()); !first)
        throw Error(where + ": " + r.key() + " is the issue " + earlier->second +
                    " gave already (one repository under a name it had before a rename): it appears twice in "
                    "the file");
      ++(written.inserted ? summary.inserted : summary.updated);
    });
    summary.outdated = outdated.dropped();
  });
  return summary;
}

void write_issues_jsonl(std::ostream& out, const std::vector<IssueRecord>& issues) {
  for (const auto& r : issues) {
    json j = {{"repo", r.repo},
              {"number", r.number},
              {"url", r.url},
              {"state", r.state},
              {"created", r.created},
              {"labels", r.labels},
              {"title", r.title},
              {"body", r.body},
              {"error_lines", r.error_lines},
              {"env", r.env},
              {"discussion", r.discussion}};
    if (r.discussion_is_comments) j["discussion_from"] = "comments";
    if (!r.updated.empty()) j["updated"] = r.updated;
    if (r.scope) {
      j["scope"] = *r.scope;
      j["scope_reason"] = r.scope_reason.value_or("");
    }
    try {
      out << j.dump() << '\n';
    } catch (const json::type_error&) {  // faultline refuses such text on import and mine
      throw Error(r.key() +
                  ": the store holds text of this issue that is not valid UTF-8 (written there by "
                  "another program?), which JSON cannot carry; export it as CSV, or mend the store");
    }
  }
}

size_t export_issues(Database& db, std::ostream& out, const std::string& format) {
  auto issues = load_issues(db);
  attach_comment_discussions(db, issues);
  format == "jsonl" ? write_issues_jsonl(out, issues) : write_issues_csv(out, issues);
  return issues.size();
}

void write_issues_csv(std::ostream& out, const std::vector<IssueRecord>& issues) {
  common::write_csv_row(out, {"repo", "number", "url", "state", "created", "labels", "title", "error_lines",
                              "scope", "scope_reason"});
  for (const auto& r : issues) {
    std::string labels, errors;
    for (const auto& l : r.labels) labels += (labels.empty() ? "" : ";") + l;
    for (const auto& e : r.error_lines) errors += (errors.empty() ? "" : " | ") + e;
    common::write_csv_row(out, {r.repo, std::to_string(r.number), r.url, r.state, r.created, labels, r.title,
                                errors, r.scope.value_or(""), r.scope_reason.value_or("")});
  }
}

}  // namespace faultline::datasets
