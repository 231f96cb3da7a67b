// The snapshot format: JSONL corpus records (DESIGN.md), read into the store and written back out.
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"
#include "datasets/store/issue_record.hpp"
#include "datasets/store/outdated_results.hpp"

namespace faultline::datasets {

// The most bytes one record may take. A record is a few hundred KiB at most (GitHub caps an issue body at
// 65,536 characters); a longer one, or an endless stream, is refused at this size instead of read until the
// memory runs out.
constexpr size_t kLongestRecordBytes = size_t{64} << 20;

// Parses every line, one at a time, handing each record and its "file:line" to `record`; throws
// faultline::Error naming the file, line and field on the first bad record, a line longer than
// kLongestRecordBytes, a repeated issue or an empty file.
void read_snapshot(const std::string& path,
                   const std::function<void(IssueRecord&&, const std::string& where)>& record);
std::vector<IssueRecord> read_snapshot(const std::string& path);
IssueRecord parse_record(const std::string& json_line, const std::string& where);

struct ImportSummary {
  int inserted = 0;
  int updated = 0;
  ResultCounts outdated;  // screening decisions and predictions the import's changes dropped
};
// Streams the file into the store in one transaction: all records or, on any error, none. Two records of one
// stored issue (under its repository's name and a name it had before a rename) are an error, as two of
// one name are.
ImportSummary import_snapshot(Database& db, const std::string& path);

void write_issues_jsonl(std::ostream& out, const std::vector<IssueRecord>& issues);
void write_issues_csv(std::ostream& out, const std::vector<IssueRecord>& issues);
// Every issue of the store as `format` ("jsonl" or "csv") writes it; how many. A mined issue's comments are
// its discussion, as classify reads them (attach_comment_discussions), so an export imported elsewhere is
// classified as here.
size_t export_issues(Database& db, std::ostream& out, const std::string& format);

}  // namespace faultline::datasets
