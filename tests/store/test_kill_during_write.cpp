// kill -9 in the middle of the two commands that write the most: `import` of 100,000 records and `classify`
// of 40,000 issues. Each writes in one transaction, so what a killed run leaves must be the store as it
// was before the run, never part of it, and the store must stay sound.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "classifier/model/classify_store.hpp"
#include "classifier/model/issue_classifier.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/snapshot.hpp"
#include "taxonomy/taxonomy.hpp"
#include "tests/temp_dir.hpp"

namespace faultline {
namespace {

const std::string kBundled = std::string(FAULTLINE_SOURCE_DIR) + "/datasets/snapshot/issues.jsonl";

// The bundled records repeated as `n` new issues (numbers from 1,000,001, so none is a bundled one).
void write_records(const std::string& path, int n) {
  std::vector<nlohmann::json> records;
  std::ifstream in(kBundled);
  for (std::string line; std::getline(in, line);) records.push_back(nlohmann::json::parse(line));
  std::ofstream out(path);
  for (int i = 0; i < n; ++i) {
    auto record = records[i % records.size()];
    int64_t number = 1000001 + i;
    record["number"] = number;
    record["url"] =
        "https://github.com/" + record["repo"].get<std::string>() + "/issues/" + std::to_string(number);
    out << record.dump() << '\n';
  }
}

int64_t scalar(const std::string& db_path, const std::string& sql) {
  datasets::Database db(db_path);
  auto s = db.prepare(sql);
  s.step();
  return s.integer(0);
}

std::string integrity(const std::string& db_path) {
  datasets::Database db(db_path);
  auto s = db.prepare("PRAGMA integrity_check");
  s.step();
  return s.text(0);
}

struct Killed {
  bool by_sigkill = false;  // false: the run ended by itself before the kill
  double wal_mib = 0;       // size of the write-ahead log when the kill was sent
};

// Starts faultline, waits until its transaction has spilled `wal_mib` into the write-ahead log (it is
// writing and has not committed: a commit of a store this size takes a checkpoint much later), then
// SIGKILLs it.
Killed kill_while_writing(const std::string& db_path, const std::vector<std::string>& args, double wal_mib) {
  std::vector<std::string> argv_text{std::string(FAULTLINE_BINARY_DIR) + "/cli/faultline", "--db", db_path,
                                     "--quiet"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  Killed k;
  std::string wal = db_path + "-wal";
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) return k;  // ended on its own: no kill landed
    std::error_code ec;
    auto size = std::filesystem::file_size(wal, ec);
    if (!ec && size >= wal_mib * 1048576) {
      k.wal_mib = size / 1048576.0;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  k.by_sigkill = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  return k;
}

TEST(KillDuringWrite, KilledImportLeavesTheStoreAsItWasAndARerunCompletesIt) {
  constexpr int kRecords = 100000;
  testing::TempDir dir;
  std::string records = dir.file("records.jsonl");
  write_records(records, kRecords);
  std::string db = dir.file("import.db");
  {
    datasets::Database store(db);
    datasets::import_snapshot(store, kBundled);
  }
  const int64_t before = scalar(db, "SELECT COUNT(*) FROM issues");
  ASSERT_EQ(before, 432);  // the bundled records, each a distinct issue

  Killed k = kill_while_writing(db, {"import", "--snapshot", records}, 4);
  ASSERT_TRUE(k.by_sigkill) << "import ended before the kill: use more records";
  EXPECT_EQ(integrity(db), "ok");
  // Killed while writing, before its commit: the store as it was (after the commit it would be complete).
  int64_t left = scalar(db, "SELECT COUNT(*) FROM issues");
  RecordProperty("wal_mib_at_kill", std::to_string(k.wal_mib));  // where it landed, in the XML report
  RecordProperty("issues_left", std::to_string(left));
  EXPECT_TRUE(left == before || left == before + kRecords)
      << left << " issues, killed at " << k.wal_mib << " MiB of log";

  // The control: left to finish, the same import does change the store, by exactly its new issues.
  datasets::Database store(db);
  datasets::import_snapshot(store, records);
  EXPECT_EQ(datasets::count_issues(store), before + kRecords);
}

TEST(KillDuringWrite, KilledClassifyLeavesThePredictionsAsTheyWereAndARerunCompletesThem) {
  constexpr int kRecords = 40000;  // classify is slower per issue than import: fewer still take seconds
  testing::TempDir dir;
  std::string records = dir.file("records.jsonl");
  write_records(records, kRecords);
  std::string db = dir.file("classify.db");
  std::string models = dir.file("models");
  {
    datasets::Database store(db);
    datasets::import_snapshot(store, records);
    // A quick model (one setting, two folds) on the bundled issues with made-up labels: what is tested here
    // is how predictions are written, not how good they are.
    const auto& tax = taxonomy::Taxonomy::builtin();
    std::vector<model::LabeledIssue> labeled;
    datasets::Database bundled(dir.file("bundled.db"));
    datasets::import_snapshot(bundled, kBundled);
    int i = 0;
    for (auto& issue : datasets::load_issues(bundled)) {
      labeled.push_back({issue, tax.symptoms()[i % 3].id, tax.root_causes()[i % 4].id});
      ++i;
    }
    model::AxisTraining quick;
    quick.grid = {model::FastTextParams{5, 0.5, 1, 10, 7}};
    quick.rule_weights = {0.0};
    quick.neighbour_weights = {0.0};
    quick.prior_corrections = {0.0};
    quick.temperatures = {1.0};
    quick.folds = 2;
    model::IssueClassifier::train(labeled, {}, quick).save(models);
  }
  ASSERT_EQ(scalar(db, "SELECT COUNT(*) FROM predictions"), 0);

  Killed k = kill_while_writing(db, {"classify", "--models", models}, 1);
  ASSERT_TRUE(k.by_sigkill) << "classify ended before the kill: use more issues";
  EXPECT_EQ(integrity(db), "ok");
  int64_t left = scalar(db, "SELECT COUNT(*) FROM predictions");
  RecordProperty("wal_mib_at_kill", std::to_string(k.wal_mib));
  RecordProperty("predictions_left", std::to_string(left));
  EXPECT_TRUE(left == 0 || left == kRecords)
      << left << " predictions, killed at " << k.wal_mib << " MiB of log";

  // The control: left to finish, classify predicts every issue.
  datasets::Database store(db);
  model::classify_store(store, models);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM predictions"), kRecords);
}

}  // namespace
}  // namespace faultline
