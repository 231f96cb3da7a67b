// faultline's benchmarks (./run bench). Each figure comes with a baseline or budget measured or stated in
// the same run, and the ratio between them; nothing here is a pass/fail test.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "classifier/annotation/label_audit.hpp"
#include "classifier/annotation/label_sheets.hpp"
#include "classifier/model/classify_store.hpp"
#include "classifier/model/text_features.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/snapshot.hpp"
#include "miner/miner.hpp"
#include "reports/report_writer.hpp"
#include "taxonomy/taxonomy.hpp"
#include "tests/miner/fake_server.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline;
using nlohmann::json;

namespace {

struct Clock {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = cpu_seconds();
  static double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }
  double wall_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  }
  double cpu_used() const { return cpu_seconds() - cpu; }
};

json results = json::object();

void row(const std::string& name, const std::string& value, const std::string& baseline,
         const std::string& ratio) {
  std::printf("  %-44s %-26s %-30s %s\n", name.c_str(), value.c_str(), baseline.c_str(), ratio.c_str());
}

std::string fmt(const char* pattern, double v) {
  char b[64];
  std::snprintf(b, sizeof b, pattern, v);
  return b;
}

// A miner that asks for each issue's comments separately: the usual first attempt, and the baseline.
long naive_mine(datasets::Database& db, const std::string& url, long* requests) {
  miner::ApiOptions api;
  api.base_url = url;
  miner::GitHubApi gh(api);
  std::vector<int64_t> numbers;
  std::string next = url + "/repos/o/r/issues?state=all&per_page=100&sort=updated&direction=asc";
  while (!next.empty()) {
    auto page = gh.get(next, std::nullopt);
    db.transaction([&] {
      for (const auto& item : page.body) {
        datasets::IssueRecord r;
        r.repo = "o/r";
        r.number = item["number"].get<int64_t>();
        r.url = item["html_url"].get<std::string>();
        r.state = item["state"].get<std::string>();
        r.title = item["title"].get<std::string>();
        r.updated = item["updated_at"].get<std::string>();
        r.raw_json = item.dump();
        datasets::upsert_issue(db, r);
        numbers.push_back(r.number);
      }
    });
    next = page.next_url;
  }
  long comments = 0;
  for (int64_t n : numbers) {
    auto page = gh.get("/repos/o/r/issues/" + std::to_string(n) + "/comments?per_page=100", std::nullopt);
    db.transaction([&] {
      for (const auto& item : page.body) {
        datasets::CommentRecord c;
        c.id = item["id"].get<int64_t>();
        c.repo = "o/r";
        c.issue_number = n;
        c.body = item["body"].get<std::string>();
        c.raw_json = item.dump();
        datasets::upsert_comment(db, c);
        ++comments;
      }
    });
  }
  *requests = gh.stats().requests;
  return comments;
}

struct ProcessRun {
  double seconds = 0;
  double peak_mib = 0;
};

// Runs the faultline executable as a user would (fork/exec), for its wall time and peak resident memory.
ProcessRun run_faultline(const std::vector<std::string>& args) {
  std::vector<std::string> argv_text{std::string(FAULTLINE_BINARY_DIR) + "/cli/faultline"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
  int spawned = posix_spawn(&pid, argv[0], &quiet, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&quiet);
  if (spawned != 0) {
    std::fprintf(stderr, "bench: cannot start %s\n", argv[0]);
    std::exit(1);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench: %s %s failed\n", argv[0], args.empty() ? "" : args[0].c_str());
    std::exit(1);
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          usage.ru_maxrss / 1024.0};
}

// n corpus records: the bundled ones repeated under new issue numbers.
std::string write_snapshot(const testing::TempDir& dir, int n) {
  std::vector<std::string> lines;
  std::ifstream in(std::string(FAULTLINE_SOURCE_DIR) + "/datasets/snapshot/issues.jsonl");
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::string path = dir.file("snapshot" + std::to_string(n) + ".jsonl");
  std::ofstream out(path);
  for (int i = 0; i < n; ++i) {
    json record = json::parse(lines[i % lines.size()]);
    record["number"] = i + 1;
    record["url"] =
        "https://github.com/" + record["repo"].get<std::string>() + "/issues/" + std::to_string(i + 1);
    out << record.dump() << '\n';
  }
  return path;
}

void bench_import() {
  std::printf("import: the whole process, 10,000 and 100,000 corpus records\n");
  testing::TempDir dir;
  std::map<int, ProcessRun> runs;
  std::map<int, double> file_mib;
  for (int n : {10000, 100000}) {
    std::string snapshot = write_snapshot(dir, n);
    file_mib[n] = std::filesystem::file_size(snapshot) / 1048576.0;
    runs[n] = run_faultline({"--db", dir.file("import" + std::to_string(n) + ".db"), "--quiet", "import",
                             "--snapshot", snapshot});
    row("import " + std::to_string(n) + " records", fmt("%.2f s", runs[n].seconds),
        fmt("file %.0f MiB", file_mib[n]), fmt("peak %.0f MiB", runs[n].peak_mib));
  }
  double linearity = runs[100000].seconds / runs[10000].seconds;
  row("import time, 100k over 10k", fmt("%.2f", linearity), "10.00 if linear",
      fmt("%.2f of linear", linearity / 10));
  results["import"] = {{"seconds_10k", runs[10000].seconds},   {"seconds_100k", runs[100000].seconds},
                       {"peak_mib_10k", runs[10000].peak_mib}, {"peak_mib_100k", runs[100000].peak_mib},
                       {"file_mib_100k", file_mib[100000]},    {"time_ratio_100k_10k", linearity}};
}

void bench_mining() {
  std::printf("mining: fake GitHub on 127.0.0.1, 10,000 issues and 50,000 comments\n");
  json config = {{"repos", {{"o/r", {{"issues", 10000}, {"comments", 50000}}}}}};
  testing::FakeGitHub server(config);
  testing::TempDir dir;
  datasets::Database db(dir.file("mine.db"));
  miner::MineOptions o;
  o.repositories = {"o/r"};
  o.api.base_url = server.url();
  Clock c;
  auto s = miner::mine(db, o, {});
  double wall = c.wall_seconds(), cpu = c.cpu_used();

  datasets::Database naive_db(dir.file("naive.db"));
  long naive_requests = 0;
  Clock n;
  naive_mine(naive_db, server.url(), &naive_requests);
  double naive_wall = n.wall_seconds(), naive_cpu = n.cpu_used();

  row("requests (repository-wide comments)", std::to_string(s.stats.requests),
      std::to_string(naive_requests) + " per-issue",
      fmt("%.1fx fewer", static_cast<double>(naive_requests) / s.stats.requests));
  row("wall time per 10,000 issues", fmt("%.2f s", wall), fmt("%.2f s", naive_wall),
      fmt("%.1fx faster", naive_wall / wall));
  row("CPU time per 10,000 issues (miner only)", fmt("%.2f s", cpu), fmt("%.2f s", naive_cpu),
      fmt("%.1fx less", naive_cpu / cpu));
  auto refresh_clock = Clock();
  auto refresh = miner::mine(db, o, {});
  row("refresh without changes", std::to_string(refresh.stats.requests) + " requests",
      std::to_string(refresh.stats.not_modified) + " answered 304",
      fmt("%.3f s", refresh_clock.wall_seconds()));
  results["mining"] = {{"requests", s.stats.requests},
                       {"wall_s", wall},
                       {"cpu_s", cpu},
                       {"baseline_requests", naive_requests},
                       {"baseline_wall_s", naive_wall},
                       {"baseline_cpu_s", naive_cpu},
                       {"refresh_requests", refresh.stats.requests},
                       {"refresh_not_modified", refresh.stats.not_modified}};
}

void bench_classifier_and_report() {
  testing::TempDir dir;
  datasets::Database db(dir.file("c.db"));
  std::string snapshot = std::string(FAULTLINE_SOURCE_DIR) + "/datasets/snapshot";
  datasets::import_snapshot(db, snapshot + "/issues.jsonl");
  annotation::import_label_sheet(db, "rater_a", snapshot + "/labels_rater_a.csv");
  annotation::import_label_sheet(db, "rater_b", snapshot + "/labels_rater_b.csv");
  annotation::run_audit(db, {"rater_a", "rater_b"}, 0.8);
  annotation::import_adjudications(db, snapshot + "/labels_adjudicated.csv");

  std::printf("classifier: the bundled corpus (%lld issues)\n",
              static_cast<long long>(datasets::count_issues(db)));
  Clock t;
  auto summary = model::train_from_store(db, dir.file("models"), 0.5);
  double train_s = t.wall_seconds();
  row("training (3 axes, CV-chosen parameters)", fmt("%.2f s", train_s), "budget 5 s",
      fmt("%.2f of budget", train_s / 5.0));

  auto model = model::IssueClassifier::load(dir.file("models"));
  auto issues = datasets::load_issues(db);
  const size_t n = 20000;
  Clock full;
  size_t abstained = 0;
  for (size_t i = 0; i < n; ++i) abstained += model.predict(issues[i % issues.size()]).abstain;
  double full_s = full.wall_seconds();
  Clock rules;
  size_t fired = 0;
  for (size_t i = 0; i < n; ++i)
    fired += model.rules().fired(model::document_text(issues[i % issues.size()])).size();
  double rules_s = rules.wall_seconds();
  row("classify (rules + 3 fastText models), 1 core", fmt("%.0f issues/s", n / full_s),
      fmt("rules alone %.0f issues/s", n / rules_s), fmt("%.2fx the rules' cost", full_s / rules_s));
  row("  against the 20,000 issues/s target", "", "", fmt("%.2fx the target", n / full_s / 20000.0));
  results["classifier"] = {{"train_s", train_s},
                           {"classify_per_s", n / full_s},
                           {"rules_only_per_s", n / rules_s},
                           {"version", summary.version},
                           {"abstained_share", static_cast<double>(abstained) / n}};

  std::printf("report: 10,000 labeled issues\n");
  datasets::Database big(dir.file("r.db"));
  std::vector<datasets::FinalLabel> finals;
  std::vector<datasets::ScreeningDecision> screened;
  std::vector<datasets::SampleEntry> sample;
  const auto& tax = taxonomy::Taxonomy::builtin();
  big.transaction([&] {
    for (int i = 0; i < 10000; ++i) {
      datasets::IssueRecord r;
      r.repo = tax.study().repositories[i % 7].id;
      r.number = i + 1;
      r.url = "https://github.com/" + r.repo + "/issues/" + std::to_string(i + 1);
      r.state = "closed";
      r.title = "synthetic issue " + std::to_string(i);
      auto id = datasets::upsert_issue(big, r).id;
      finals.push_back(datasets::FinalLabel{id, tax.symptoms()[i % 6].id, tax.root_causes()[(i * 7) % 15].id,
                                            "agreed", "a,b"});
      screened.push_back({id, "candidate", "bench"});
      sample.push_back({id, "sampled", "census", std::nullopt, std::nullopt, 0});
    }
    datasets::replace_screening(big, screened);
    datasets::replace_sample(big, "main", sample);
    auto audit = datasets::record_audit(big, "a,b", 10000, 0.9, 0.8, "pass");
    datasets::replace_final_labels(big, finals, audit);
  });
  Clock r;
  auto data = reports::load_report_data(big, {});
  if (data.cases.size() != 10000) {
    std::fprintf(stderr, "bench: the report counted %zu cases, not 10000\n", data.cases.size());
    std::exit(1);
  }
  auto written = reports::write_report(data, dir.file("report"), {"md", "csv", "tex", "json", "html"});
  double report_s = r.wall_seconds();
  row("report, all formats", fmt("%.2f s", report_s), "budget 2 s", fmt("%.2f of budget", report_s / 2.0));
  results["report"] = {{"seconds", report_s}, {"files", written.files.size()}};
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows even when piped
  std::printf("faultline benchmarks (%s)\n", argc > 1 ? argv[1] : "");
  row("measure", "value", "baseline / budget", "ratio");
  bench_import();
  bench_mining();
  bench_classifier_and_report();
  std::string out = std::string(FAULTLINE_BINARY_DIR) + "/bench.json";
  std::ofstream(out) << results.dump(2) << '\n';
  std::printf("results written to %s\n", out.c_str());
  return 0;
}
