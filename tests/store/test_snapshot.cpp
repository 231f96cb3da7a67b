#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/mining_store.hpp"
#include "datasets/store/snapshot.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::datasets;

namespace {

const char* kRecord =
    R"({"repo":"flashinfer-ai/flashinfer","number":258,"url":"https://github.com/flashinfer-ai/flashinfer/issues/258",)"
    R"("state":"closed","created":"2024-05-30","labels":["bug"],"title":"group size 3 not supported",)"
    R"("body":"b","error_lines":["RuntimeError: Unsupported group_size: 3"],"env":"A100","discussion":"d",)"
    R"("scope":"in","scope_reason":"dispatch gap"})";

std::string expect_error(const std::string& line) {
  try {
    parse_record(line, "f.jsonl:7");
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Snapshot, ReimportUpdatesInsteadOfDuplicating) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  std::string path = dir.write("a.jsonl", std::string(kRecord) + "\n");
  auto first = import_snapshot(db, path);
  EXPECT_EQ(first.inserted, 1);
  std::string changed = kRecord;
  changed.replace(changed.find("group size 3"), 12, "group size 3!");
  dir.write("a.jsonl", changed + "\n");
  auto second = import_snapshot(db, path);
  EXPECT_EQ(second.inserted, 0);
  EXPECT_EQ(second.updated, 1);
  auto issues = load_issues(db);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].title, "group size 3! not supported");
  EXPECT_EQ(issues[0].labels, std::vector<std::string>{"bug"});
  EXPECT_EQ(issues[0].error_lines, std::vector<std::string>{"RuntimeError: Unsupported group_size: 3"});
}

TEST(Snapshot, ExportThenImportRoundTripsEveryField) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  import_snapshot(db, dir.write("a.jsonl", std::string(kRecord) + "\n"));
  std::ostringstream out;
  write_issues_jsonl(out, load_issues(db));
  IssueRecord back = parse_record(out.str(), "export");
  // Expected values are read off kRecord by hand, so a field lost on either the way in or the way out shows.
  EXPECT_EQ(back.repo, "flashinfer-ai/flashinfer");
  EXPECT_EQ(back.number, 258);
  EXPECT_EQ(back.url, "https://github.com/flashinfer-ai/flashinfer/issues/258");
  EXPECT_EQ(back.state, "closed");
  EXPECT_EQ(back.created, "2024-05-30");
  EXPECT_EQ(back.labels, std::vector<std::string>{"bug"});
  EXPECT_EQ(back.title, "group size 3 not supported");
  EXPECT_EQ(back.body, "b");
  EXPECT_EQ(back.error_lines, std::vector<std::string>{"RuntimeError: Unsupported group_size: 3"});
  EXPECT_EQ(back.env, "A100");
  EXPECT_EQ(back.discussion, "d");
  EXPECT_EQ(back.scope, "in");
  EXPECT_EQ(back.scope_reason, "dispatch gap");
}

// A mined issue has no discussion of its own: its comments are its discussion, oldest first, as classify
// reads them. The export writes them so, and an import of the export holds the same discussion.
TEST(Snapshot, AMinedIssuesCommentsAreExportedAsItsDiscussion) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  IssueRecord mined;
  mined.repo = "o/r";
  mined.number = 1;
  mined.url = "https://github.com/o/r/issues/1";
  mined.state = "closed";
  mined.title = "crash";
  upsert_issue(db, mined);
  upsert_comment(db, {11, "o/r", 1, "x", "2024-01-02", "", "fixed by the next release", std::nullopt});
  upsert_comment(db, {10, "o/r", 1, "x", "2024-01-01", "", "a race in the barrier", std::nullopt});
  std::ostringstream out;
  EXPECT_EQ(export_issues(db, out, "jsonl"), 1u);
  EXPECT_EQ(parse_record(out.str(), "export").discussion, "a race in the barrier\nfixed by the next release");
  Database again(dir.file("again.db"));
  import_snapshot(again, dir.write("exported.jsonl", out.str()));
  EXPECT_EQ(load_issue_as_classified(again, *find_issue(again, "o/r", 1)).discussion,
            load_issue_as_classified(db, *find_issue(db, "o/r", 1)).discussion);
  // The export marks the text as the comments'. Read back into the same store, they stay its source, also
  // when one was mined between the export and the import and when one is mined later (stored as the
  // issue's own, the text froze the discussion as it was).
  EXPECT_NE(out.str().find("\"discussion_from\":\"comments\""), std::string::npos) << out.str();
  upsert_comment(db, {12, "o/r", 1, "x", "2024-01-03", "", "confirmed", std::nullopt});
  import_snapshot(db, dir.write("back.jsonl", out.str()));
  const int64_t id = *find_issue(db, "o/r", 1);
  EXPECT_EQ(load_issue(db, id).discussion, "");
  upsert_comment(db, {13, "o/r", 1, "x", "2024-01-04", "", "released", std::nullopt});
  EXPECT_EQ(load_issue_as_classified(db, id).discussion,
            "a race in the barrier\nfixed by the next release\nconfirmed\nreleased");
  // The trigger removed: the same text without the mark (written by hand, edited) is the issue's own.
  std::string own = out.str();
  own.erase(own.find(",\"discussion_from\":\"comments\""),
            std::string(",\"discussion_from\":\"comments\"").size());
  import_snapshot(db, dir.write("own.jsonl", own));
  EXPECT_EQ(load_issue_as_classified(db, id).discussion, "a race in the barrier\nfixed by the next release");
  EXPECT_THROW(
      parse_record(R"({"repo":"o/r","number":1,"state":"closed","title":"t","discussion_from":"x"})", "f"),
      faultline::Error);
  // The trigger removed: an issue without comments exports an empty discussion.
  std::ostringstream none;
  Database bare(dir.file("bare.db"));
  upsert_issue(bare, mined);
  export_issues(bare, none, "jsonl");
  EXPECT_EQ(parse_record(none.str(), "export").discussion, "");
}

// o/r was renamed o/new: a file holding o/new#1 and o/r#1 gives one issue twice, and the second record
// silently replaced the first (its scope decision with it) while `updated` counted two.
TEST(Snapshot, OneIssueUnderItsNameAndAFormerNameInOneFileIsRefused) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  auto record = [](const std::string& repo, int number, const std::string& state) {
    return R"({"repo":")" + repo + R"(","number":)" + std::to_string(number) + R"(,"state":")" + state +
           R"(","title":"crash"})" + "\n";
  };
  import_snapshot(db, dir.write("first.jsonl", record("o/r", 1, "closed")));
  rename_repository(db, "o/r", "o/new");
  const std::string path = dir.write("both.jsonl", record("o/new", 1, "closed") + record("o/r", 1, "open"));
  try {
    import_snapshot(db, path);
    ADD_FAILURE() << "imported";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              path +
                  ":2: o/r#1 is the issue o/new#1 gave already (one repository under a "
                  "name it had before a rename): it appears twice in the file");
  }
  EXPECT_EQ(load_issues(db).at(0).state, "closed");
  // The trigger removed: another number under the former name is another issue.
  const auto summary =
      import_snapshot(db, dir.write("two.jsonl", record("o/new", 1, "closed") + record("o/r", 2, "open")));
  EXPECT_EQ(summary.inserted, 1);
  EXPECT_EQ(summary.updated, 1);
}

TEST(Snapshot, BadRecordsNameFileLineAndField) {
  EXPECT_EQ(expect_error(kRecord), "");  // the good record parses, so each message below is the trigger's
  // A key the format does not have (a misspelled scope was dropped, a person's decision with it), and a
  // reason without the decision it is for.
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t","scpoe":"out"})"),
            "f.jsonl:7: 'scpoe' is not a field of a corpus record (the fields: repo, number, url, state, "
            "created, updated, labels, title, body, error_lines, env, discussion, discussion_from, scope, "
            "scope_reason)");
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t","scope_reason":"dup"})"),
            "f.jsonl:7: scope_reason is given without a scope ('in' or 'out'), which it is the reason for");
  EXPECT_EQ(
      expect_error(
          R"({"repo":"a/b","number":3,"state":"closed","title":"t","scope":"out","scope_reason":"dup"})"),
      "");
  EXPECT_EQ(expect_error("{not json").rfind("f.jsonl:7: not valid JSON (", 0), 0u);
  EXPECT_EQ(expect_error(R"({"repo":"cutlass","number":1,"state":"closed","title":"t"})"),
            "f.jsonl:7: repo 'cutlass' is not of the form OWNER/NAME (there is no '/')");
  EXPECT_EQ(
      expect_error(R"({"repo":"nvidia-/cutlass","number":1,"state":"closed","title":"t"})"),
      "f.jsonl:7: repo 'nvidia-/cutlass' is not of the form OWNER/NAME (the owner starts or ends with '-')");
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":-3,"state":"closed","title":"t"})"),
            "f.jsonl:7: field 'number' must be a positive integer");
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed"})"),
            "f.jsonl:7: missing field 'title'");
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t","labels":"bug"})"),
            "f.jsonl:7: field 'labels' must be a list of strings");
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t","scope":"maybe"})"),
            "f.jsonl:7: scope 'maybe' must be 'in' or 'out'");
}

TEST(Snapshot, AUrlMustBeTheIssuesPageAndTimesADateOrAUtcTime) {
  const std::string base = R"({"repo":"a/b","number":3,"state":"closed","title":"t")";
  auto with = [&](const std::string& fields) { return expect_error(base + "," + fields + "}"); };
  // Accepted: the page on github.com or another host, under the repository's name or one it had before a
  // rename, and either time form.
  EXPECT_EQ(with(R"("url":"https://github.com/A/B/issues/3","created":"2024-02-29")"), "");
  EXPECT_EQ(with(R"("url":"https://ghe.example.com/a/b/pull/3","updated":"2024-02-29T23:59:59Z")"), "");
  EXPECT_EQ(with(R"("url":"https://github.com/a/before-rename/issues/3")"), "");
  EXPECT_EQ(with(R"("url":"https://github.com/a/b/issues/4")"),
            "f.jsonl:7: url 'https://github.com/a/b/issues/4' is not the page of issue 3 (it is the page of "
            "issue 4, not of 3)");
  EXPECT_EQ(
      with(R"x("url":"javascript:alert(1)")x"),
      "f.jsonl:7: url 'javascript:alert(1)' is not the page of issue 3 (it does not start with https:// "
      "or http://)");
  EXPECT_EQ(
      with(R"("created":"2023-02-29")"),
      "f.jsonl:7: created '2023-02-29' is not a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ) from "
      "1970 on");
  EXPECT_EQ(with(R"x("updated":"=HYPERLINK(\"x\")")x"),
            "f.jsonl:7: updated '=HYPERLINK(\"x\")' is not a date (YYYY-MM-DD) or a UTC time "
            "(YYYY-MM-DDTHH:MM:SSZ) from 1970 on");
  // Year 0 read as seconds before 1970, which the sampler took for "no date".
  EXPECT_EQ(with(R"("created":"0000-01-01")"),
            "f.jsonl:7: created '0000-01-01' is not a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ) "
            "from 1970 on");
  // No url: the github.com page is written in.
  EXPECT_EQ(parse_record(base + "}", "f").url, "https://github.com/a/b/issues/3");
}

TEST(Snapshot, AnUpdateBeforeTheIssueWasCreatedIsRefused) {
  const std::string base = R"({"repo":"a/b","number":3,"state":"closed","title":"t")";
  auto with = [&](const std::string& fields) { return expect_error(base + "," + fields + "}"); };
  EXPECT_EQ(with(R"("created":"2024-05-30T10:00:00Z","updated":"2024-05-30T10:00:00Z")"), "");
  EXPECT_EQ(with(R"("created":"2024-05-30T10:00:00Z","updated":"2024-05-30")"), "");  // that day: in order
  EXPECT_EQ(with(R"("created":"2024-05-30","updated":"2024-05-30T00:00:00Z")"), "");
  EXPECT_EQ(with(R"("updated":"1999-01-01")"), "");  // nothing to compare with
  EXPECT_EQ(with(R"("created":"2024-05-30T10:00:00Z","updated":"2024-05-30T09:59:59Z")"),
            "f.jsonl:7: updated '2024-05-30T09:59:59Z' is before created '2024-05-30T10:00:00Z'");
  EXPECT_EQ(with(R"("created":"2024-05-30T10:00:00Z","updated":"2024-05-29")"),
            "f.jsonl:7: updated '2024-05-29' is before created '2024-05-30T10:00:00Z'");
}

// Readers disagree on which of two values of one key counts: such a record is refused, at any depth.
TEST(Snapshot, AKeyTwiceInOneObjectIsRefused) {
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t","body":"b"})"), "");
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"shown","title":"read"})"),
            "f.jsonl:7: the key 'title' appears twice in one object");
  // The same key in two objects is no repeat (the record is refused only for its field 'x'); inside one
  // nested object it is.
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t","x":[{"k":1},{"k":2}]})")
                .rfind("f.jsonl:7: 'x' is not a field of a corpus record", 0),
            0u);
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t","x":{"k":1,"k":2}})"),
            "f.jsonl:7: the key 'k' appears twice in one object");
  // A long key is cut in the message, as one that is not a field is.
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t",")" +
                         std::string(1000, 'z') + R"(":1})")
                .rfind("f.jsonl:7: '" + std::string(80, 'z') + "...' is not a field of a corpus record", 0),
            0u);
  const std::string key(1000, 'k');
  EXPECT_EQ(expect_error(R"({"repo":"a/b","number":3,"state":"closed","title":"t",")" + key + R"(":1,")" +
                         key + R"(":2})"),
            "f.jsonl:7: the key '" + std::string(80, 'k') + "...' appears twice in one object");
}

TEST(Snapshot, DuplicateIssueInOneFileIsRejected) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("d.jsonl", std::string(kRecord) + "\n" + kRecord + "\n");
  try {
    read_snapshot(path);
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("d.jsonl:2: flashinfer-ai/flashinfer#258 appears twice"),
              std::string::npos);
  }
  // The repository in another case is the same repository (GitHub's names ignore case).
  std::string other_case = kRecord;
  other_case.replace(other_case.find("flashinfer-ai/flashinfer"), 24, "FlashInfer-AI/FlashInfer");
  path = dir.write("e.jsonl", std::string(kRecord) + "\n" + other_case + "\n");
  try {
    read_snapshot(path);
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("e.jsonl:2: FlashInfer-AI/FlashInfer#258 appears twice"),
              std::string::npos)
        << e.what();
  }
}

TEST(Snapshot, BundledCorpusImportsCompletely) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  auto summary = import_snapshot(db, std::string(FAULTLINE_SOURCE_DIR) + "/datasets/snapshot/issues.jsonl");
  // 432 records, counted independently with `wc -l datasets/snapshot/issues.jsonl`.
  EXPECT_EQ(summary.inserted, 432);
  EXPECT_EQ(count_issues(db), 432);
}

TEST(Snapshot, ImportingADirectoryOrAnEmptyFileIsAnErrorNamingIt) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  auto message = [&](const std::string& path) {
    try {
      import_snapshot(db, path);
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(dir.path().string()), dir.path().string() + ": is a directory, not a file");
  std::string empty = dir.write("empty.jsonl", "\n");
  EXPECT_EQ(message(empty), empty + ": no records (the file has no line that is not blank)");
  // One record in the same file imports: emptiness, not the file, was the error.
  dir.write("empty.jsonl", std::string(kRecord) + "\n");
  EXPECT_EQ(message(empty), "");
}

TEST(Snapshot, ABadRecordAfterGoodOnesLeavesTheStoreAsItWas) {
  // Records are written while the file is read, so all-or-nothing rests on the transaction: lines 1 and 2 are
  // good new issues, line 3 is broken, and nothing may land. Without the bad line both land (shown last).
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  std::string other = kRecord;
  other.replace(other.find("\"number\":258"), 12, "\"number\":259");
  other.replace(other.find("issues/258"), 10, "issues/259");
  std::string good = std::string(kRecord) + "\n" + other + "\n";
  std::string path = dir.write("a.jsonl", good + "{\"repo\": \"flashinfer-ai/flashinfer\"}\n");
  EXPECT_THROW(import_snapshot(db, path), faultline::Error);
  EXPECT_EQ(count_issues(db), 0);
  dir.write("a.jsonl", good);
  EXPECT_EQ(import_snapshot(db, path).inserted, 2);
  EXPECT_EQ(count_issues(db), 2);
}

// A record just under the limit whose export (its absent fields written out) would be over it: it could be
// imported once and never again from its export, so it is refused; one that fits either way is taken and
// its export imports again.
TEST(Snapshot, ARecordWhoseExportWouldNotImportAgainIsRefused) {
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  const std::string head = R"({"repo": "a/b", "number": 1, "state": "open", "title": "t", "body": ")";
  const std::string tail = "\"}";
  // By hand: export adds "url", "created", "labels", "error_lines", "env" and "discussion" (over 100 bytes).
  const std::string near =
      head + std::string(kLongestRecordBytes - head.size() - tail.size() - 10, 'x') + tail;
  ASSERT_EQ(near.size(), kLongestRecordBytes - 10);
  const std::string path = dir.write("near.jsonl", near + "\n");
  try {
    import_snapshot(db, path);
    ADD_FAILURE() << "imported";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":1: the record takes "), std::string::npos) << e.what();
  }
  const std::string fits =
      head + std::string(kLongestRecordBytes - head.size() - tail.size() - 4096, 'x') + tail;
  dir.write("fits.jsonl", fits + "\n");
  EXPECT_EQ(import_snapshot(db, dir.file("fits.jsonl")).inserted, 1);
  std::ofstream exported(dir.file("exported.jsonl"));
  write_issues_jsonl(exported, load_issues(db));
  exported.close();
  Database again(dir.file("again.db"));
  EXPECT_EQ(import_snapshot(again, dir.file("exported.jsonl")).inserted, 1);
}

TEST(Snapshot, ALineLongerThanARecordMayBeIsRefusedBeforeItIsParsed) {
  // A good record, then one line a byte over the 64 MiB a record may take: the import names that line and
  // its size, rather than reading the line whole and failing to parse it; nothing lands.
  faultline::testing::TempDir dir;
  Database db(dir.file("store.db"));
  std::string path =
      dir.write("a.jsonl", std::string(kRecord) + "\n" + std::string(kLongestRecordBytes + 1, 'x'));
  try {
    import_snapshot(db, path);
    ADD_FAILURE() << "the long line was read";
  } catch (const faultline::Error& e) {
    EXPECT_EQ(std::string(e.what()), path + ":2: a line of more than 64 MiB; refused");
  }
  EXPECT_EQ(count_issues(db), 0);
}
