// faultline's benchmarks (./run bench). Each figure comes with a baseline or budget measured or stated in
// the same run, and the ratio between them; nothing here is a pass/fail test.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "classifier/model/classify_store.hpp"
#include "classifier/model/fasttext_model.hpp"
#include "classifier/model/fold_assignments.hpp"
#include "classifier/model/issue_classifier.hpp"
#include "classifier/model/rules.hpp"
#include "classifier/model/text_features.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "miner/miner.hpp"
#include "taxonomy/taxonomy.hpp"
#include "tests/bench/bench_table.hpp"
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

// A miner that asks for each issue's comments separately: the usual first attempt, and the baseline. It
// writes as the miner does (prepared writers, temporary files in memory), so that the two differ in their
// requests alone.
long naive_mine(datasets::Database& db, const std::string& url, long* requests) {
  db.keep_temporary_files_in_memory();
  miner::ApiOptions api;
  api.base_url = url;
  miner::GitHubApi gh(api);
  std::vector<int64_t> numbers;
  std::string next = url + "/repos/o/r/issues?state=all&per_page=100&sort=updated&direction=asc";
  while (!next.empty()) {
    auto page = gh.get(next, std::nullopt);
    db.transaction([&] {
      datasets::IssueWriter writer(db);
      for (const auto& item : page.body) {
        datasets::IssueRecord r;
        r.repo = "o/r";
        r.number = item["number"].get<int64_t>();
        r.url = item["html_url"].get<std::string>();
        r.state = item["state"].get<std::string>();
        r.title = item["title"].get<std::string>();
        r.updated = item["updated_at"].get<std::string>();
        r.raw_json = item.dump();
        writer.upsert(r);
        numbers.push_back(r.number);
      }
    });
    next = page.next_url;
  }
  long comments = 0;
  for (int64_t n : numbers) {
    auto page = gh.get("/repos/o/r/issues/" + std::to_string(n) + "/comments?per_page=100", std::nullopt);
    db.transaction([&] {
      datasets::CommentWriter writer(db);
      for (const auto& item : page.body) {
        datasets::CommentRecord c;
        c.id = item["id"].get<int64_t>();
        c.repo = "o/r";
        c.issue_number = n;
        c.body = item["body"].get<std::string>();
        c.raw_json = item.dump();
        writer.upsert(c);
        ++comments;
      }
    });
  }
  *requests = gh.stats().requests;
  return comments;
}

struct ProcessRun {
  double seconds = 0;
  double cpu_seconds = 0;  // user + system: what a shared machine's load does not inflate
  double peak_mib = 0;
};

// Runs a program as a user would (posix_spawn, then wait4), for its wall time and peak resident memory;
// stdout goes to `out` (and stderr too with `quiet`). Any failure ends the bench: a figure of a failed run
// would be a figure of nothing.
ProcessRun run_process(std::vector<std::string> argv_text, const std::string& out = "/dev/null",
                       bool quiet = false) {
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (quiet) posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
  int spawned = posix_spawnp(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0) {
    std::fprintf(stderr, "bench: cannot start %s\n", argv[0]);
    std::exit(1);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string line;
    for (const auto& a : argv_text) line += " " + a;
    std::fprintf(stderr, "bench: failed:%s\n", line.c_str());
    std::exit(1);
  }
  return {
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
      usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6,
      usage.ru_maxrss / 1024.0};
}

ProcessRun run_faultline(const std::string& db, const std::vector<std::string>& args,
                         const std::string& out = "/dev/null") {
  std::vector<std::string> argv{std::string(FAULTLINE_BINARY_DIR) + "/cli/faultline", "--db", db, "--quiet"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, out);
}

// The run of median wall time.
ProcessRun median_run(std::vector<ProcessRun> runs) {
  std::sort(runs.begin(), runs.end(),
            [](const ProcessRun& a, const ProcessRun& b) { return a.seconds < b.seconds; });
  return runs[runs.size() / 2];
}

// Baselines and whole commands are timed three times and the median run kept: one run varies by a tenth or
// more on this shared machine.
ProcessRun median_of_three(const std::function<ProcessRun()>& run) {
  return median_run({run(), run(), run()});
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

// The bundled corpus with both raters' labels, audited and adjudicated, as the demo makes it.
std::string labeled_bundled_store(const testing::TempDir& dir) {
  std::string db = dir.file("bundled.db");
  std::string data = std::string(FAULTLINE_SOURCE_DIR) + "/datasets/snapshot";
  run_faultline(db, {"import", "--snapshot", data + "/issues.jsonl"});
  run_faultline(db, {"label", "import", "--rater", "rater_a", data + "/labels_rater_a.csv"});
  run_faultline(db, {"label", "import", "--rater", "rater_b", data + "/labels_rater_b.csv"});
  run_faultline(db, {"audit", "--raters", "rater_a,rater_b", "--threshold", "0.8"});
  run_faultline(db, {"adjudicate", data + "/labels_adjudicated.csv"});
  return db;
}

// The fastText models a trained model directory holds, by file name without ".ftz": the axes (scope only
// when train had enough scope decisions) and the root cause's dimension model when training kept it.
std::vector<std::string> model_axes(const std::string& model_dir) {
  std::vector<std::string> axes;
  for (const char* axis : {"scope", "symptom", "root_cause", "root_cause.group"}) {
    if (std::filesystem::exists(model_dir + "/" + axis + ".ftz")) axes.push_back(axis);
  }
  return axes;
}

// What a model of `axis` reads of an issue's features, by what its axis model records (the dimension model
// reads as the root cause's): learning, the text it learned from; predicting, the tokens classify hands it,
// which still hold the tokens it learned without (<num>, stop words): it passes them over as unknown words,
// and so does `fasttext predict-prob`, so that both look them up.
enum class Use { kLearning, kPredicting };
std::string fasttext_document_of(const std::string& model_dir, const std::string& axis,
                                 const model::IssueFeatures& features, Use use) {
  static std::map<std::string, model::FastTextReading> readings;  // by axis model file
  const std::string owner = model_dir + "/" + (axis == "root_cause.group" ? "root_cause" : axis) + ".json";
  if (!readings.count(owner)) {
    const json j = json::parse(std::ifstream(owner));
    readings[owner] = {j.at("fasttext_without_numbers").get<bool>(),
                       j.at("fasttext_discussion_once").get<bool>(),
                       j.at("fasttext_without_stop_words").get<bool>()};
  }
  model::FastTextReading reading = readings[owner];
  if (use == Use::kPredicting) reading = {.discussion_once = reading.discussion_once};
  return model::fasttext_document(features.document, features.discussion_again, reading);
}

// What `eval --folds 10` (the default fold seed and time split) says of the classifier: accuracy, macro-F1,
// kappa and the accuracy of the most confident share (60% for the symptom, 40% for the root cause, the
// shares the classifier's targets name) per axis, and the time split's three figures per axis; then the
// same four figures averaged over the thirty fold assignments the README reports (seeds 1 to 6 and 8 to
// 31), as one assignment moves them by about ±0.02.
void record_accuracy(const testing::TempDir& dir, const std::string& db) {
  const std::string out = dir.file("eval.json");
  run_faultline(db, {"eval", "--folds", "10", "--json"}, out);
  const json eval = json::parse(std::ifstream(out));
  auto figures = [](const json& axis) {
    return json{
        {"accuracy", axis.at("accuracy")}, {"macro_f1", axis.at("macro_f1")}, {"kappa", axis.at("kappa")}};
  };
  auto top_share = [](const json& axis, double share) {
    for (const auto& s : axis.at("selective"))
      if (std::abs(s.at("coverage").get<double>() - share) < 1e-9) return s.at("accuracy").get<double>();
    std::fprintf(stderr, "bench: eval --json has no accuracy at coverage %.1f\n", share);
    std::exit(1);
  };
  json& symptom = results["accuracy_symptom"] = figures(eval.at("symptom"));
  symptom["top_60_accuracy"] = top_share(eval.at("symptom"), model::kSymptomSurestShare);
  json& cause = results["accuracy_root_cause"] = figures(eval.at("root_cause"));
  cause["top_40_accuracy"] = top_share(eval.at("root_cause"), model::kRootCauseSurestShare);
  results["time_split_symptom"] = figures(eval.at("time_split").at("symptom"));
  results["time_split_root_cause"] = figures(eval.at("time_split").at("root_cause"));

  const std::string thirty_out = dir.file("eval_thirty.json");
  run_faultline(db, {"eval", "--folds", "10", "--seeds", "1-6,8-31", "--json"}, thirty_out);
  const json thirty = json::parse(std::ifstream(thirty_out));
  const json& mean = thirty.at("mean");
  json& thirty_symptom = results["thirty_symptom"] = figures(mean.at("symptom"));
  thirty_symptom["top_60_accuracy"] = mean.at("symptom").at("surest_accuracy");
  json& thirty_cause = results["thirty_root_cause"] = figures(mean.at("root_cause"));
  thirty_cause["top_40_accuracy"] = mean.at("root_cause").at("surest_accuracy");
  results["thirty"] = {{"fold_assignments", thirty.at("fold_assignments").size()}};
  std::printf("  eval: symptom macro-F1 %.3f kappa %.3f; root cause macro-F1 %.3f kappa %.3f\n",
              symptom["macro_f1"].get<double>(), symptom["kappa"].get<double>(),
              cause["macro_f1"].get<double>(), cause["kappa"].get<double>());
}

// `train` and `eval --folds 10` as processes, against the fastText CLI training the final models alone with
// the settings train chose, on the same labeled documents (and the root cause's descriptions).
void bench_training(const testing::TempDir& dir, const std::string& db, const std::string& model_dir) {
  std::printf("training on the bundled corpus\n");
  ProcessRun train = median_of_three([&] { return run_faultline(db, {"train", "--models", model_dir}); });
  ProcessRun eval = median_of_three([&] { return run_faultline(db, {"eval", "--folds", "10"}); });

  datasets::Database store(db);
  const auto& rules = model::RuleSet::builtin();
  std::map<std::string, std::ofstream> inputs;
  for (const auto& axis : model_axes(model_dir)) inputs[axis].open(dir.file("train_" + axis + ".txt"));
  size_t labeled = 0, scoped = 0;
  for (const auto& l : model::load_labeled_issues(store).cases) {
    // What each model learned from (AxisTraining::fasttext_reading), so theirs too.
    const model::IssueFeatures features = model::extract_features(rules, l.issue);
    inputs["symptom"] << "__label__" << l.symptom << ' '
                      << fasttext_document_of(model_dir, "symptom", features, Use::kLearning) << '\n';
    inputs["root_cause"] << "__label__" << l.root_cause << ' '
                         << fasttext_document_of(model_dir, "root_cause", features, Use::kLearning) << '\n';
    if (inputs.count("root_cause.group")) {
      inputs["root_cause.group"] << "__label__"
                                 << taxonomy::Taxonomy::builtin().root_cause(l.root_cause).dimension << ' '
                                 << fasttext_document_of(model_dir, "root_cause.group", features,
                                                         Use::kLearning)
                                 << '\n';
    }
    ++labeled;
  }
  {
    // After them, as train gives them, the descriptions its root-cause model read (its record says which and
    // how many times).
    const json record = json::parse(std::ifstream(model_dir + "/root_cause.json"));
    const auto described = record.at("fasttext_described_classes").get<std::vector<std::string>>();
    for (const auto& d : model::description_rows(model::root_cause_descriptions(rules), described,
                                                 record.at("fasttext_description_copies").get<int>())) {
      model::IssueFeatures features;
      features.document = d.document;
      inputs["root_cause"] << "__label__" << d.label << ' '
                           << fasttext_document_of(model_dir, "root_cause", features, Use::kLearning) << '\n';
    }
  }
  if (inputs.count("scope")) {
    auto issues = datasets::load_issues(store);
    datasets::attach_comment_discussions(store, issues);
    for (const auto& issue : issues) {
      if (!issue.scope) continue;
      inputs["scope"] << "__label__" << *issue.scope << ' '
                      << fasttext_document_of(model_dir, "scope", model::extract_features(rules, issue),
                                              Use::kLearning)
                      << '\n';
      ++scoped;
    }
  }
  for (auto& [axis, file] : inputs) file.close();
  double cli_seconds = 0;
  json cli_by_model = json::object();
  for (const auto& [axis, file] : inputs) {
    // The dimension model is trained with the root cause's settings.
    auto chosen = json::parse(
        std::ifstream(model_dir + "/" + (axis == "root_cause.group" ? "root_cause" : axis) + ".json"));
    int word_ngrams = chosen.at("word_ngrams").get<int>();
    double seconds = median_of_three([&] {
                       return run_process({"fasttext",    "supervised",
                                           "-input",      dir.file("train_" + axis + ".txt"),
                                           "-output",     dir.file("cli_" + axis),
                                           "-epoch",      std::to_string(chosen.at("epoch").get<int>()),
                                           "-lr",         json(chosen.at("lr").get<double>()).dump(),
                                           "-wordNgrams", std::to_string(word_ngrams),
                                           "-dim",        std::to_string(chosen.at("dim").get<int>()),
                                           "-seed",       std::to_string(chosen.at("seed").get<int>()),
                                           "-minCount",   "1",
                                           "-minn",       "0",
                                           "-maxn",       "0",
                                           "-bucket",     word_ngrams > 1 ? "50000" : "0",
                                           "-thread",     "1",
                                           "-loss",       "softmax"},
                                          "/dev/null", true);
                     }).seconds;
    cli_by_model[axis] = seconds;
    cli_seconds += seconds;
  }
  std::printf("  train %.2f s (peak %.0f MiB), fasttext supervised x%zu %.2f s; eval --folds 10 %.2f s\n",
              train.seconds, train.peak_mib, inputs.size(), cli_seconds, eval.seconds);
  results["train"] = {{"seconds", train.seconds},
                      {"peak_mib", train.peak_mib},
                      {"fasttext_cli_seconds", cli_seconds},
                      {"fasttext_cli_models", inputs.size()},
                      {"fasttext_cli_seconds_by_model", cli_by_model},
                      {"labeled", labeled},
                      {"scoped", scoped}};
  results["eval"] = {{"folds", 10}, {"seconds", eval.seconds}, {"peak_mib", eval.peak_mib}, {"budget_s", 30}};
  record_accuracy(dir, db);
}

// The fastText CLI's share of classify: `fasttext predict-prob` (every label's probability) with each of
// the model's fastText models, on the documents classify gives them (extract_features, less the tokens the
// model skips by position: the discussion's second reading where it reads the discussion once), one per
// line.
void bench_classify_baseline(const testing::TempDir& dir, const std::string& db,
                             const std::string& model_dir) {
  auto axes = model_axes(model_dir);
  size_t n = 0;
  {
    datasets::Database store(db);
    const auto& rules = model::RuleSet::builtin();
    std::map<std::string, std::ofstream> out;
    for (const auto& axis : axes) out[axis].open(dir.file("documents_" + axis + ".txt"));
    datasets::for_each_issue_batch(store, 2000, [&](std::vector<datasets::IssueRecord>& issues) {
      for (const auto& issue : issues) {
        const model::IssueFeatures features = model::extract_features(rules, issue);
        for (auto& [axis, file] : out)
          file << fasttext_document_of(model_dir, axis, features, Use::kPredicting) << '\n';
        ++n;
      }
    });
  }
  double seconds = 0, cpu_seconds = 0, peak = 0;
  for (const auto& axis : axes) {
    const std::string documents = dir.file("documents_" + axis + ".txt");
    std::string bin = dir.file("cli_" + axis + ".bin");
    std::ofstream(bin, std::ios::binary)
        << model::FastTextModel::load(model_dir + "/" + axis + ".ftz").fasttext_bytes();
    ProcessRun run = median_of_three([&] {
      return run_process({"fasttext", "predict-prob", bin, documents, "-1"});
    });
    results["classify"]["fasttext_cli_seconds_100k_by_model"][axis] = run.seconds;
    seconds += run.seconds;
    cpu_seconds += run.cpu_seconds;
    peak = std::max(peak, run.peak_mib);
  }
  std::printf("  fasttext predict-prob x%zu on %zu documents: %.2f s, peak %.0f MiB\n", axes.size(), n,
              seconds, peak);
  results["classify"]["fasttext_cli_seconds_100k"] = seconds;
  results["classify"]["fasttext_cli_cpu_seconds_100k"] = cpu_seconds;
  results["classify"]["fasttext_cli_peak_mib"] = peak;
  results["classify"]["fasttext_cli_models"] = axes.size();
  results["classify"]["fasttext_cli_documents"] = n;
}

// Every issue of the store labeled (final labels, a census sample, an audit), for the report: the issues keep
// their bodies, as a real study's store does.
void label_every_issue(const std::string& db) {
  datasets::Database store(db);
  const auto& tax = taxonomy::Taxonomy::builtin();
  std::vector<datasets::FinalLabel> finals;
  std::vector<datasets::SampleEntry> sample;
  int i = 0;
  datasets::for_each_issue_batch(store, 2000, [&](std::vector<datasets::IssueRecord>& issues) {
    for (const auto& issue : issues) {
      finals.push_back(datasets::FinalLabel{issue.id, tax.symptoms()[i % 6].id,
                                            tax.root_causes()[(i * 7) % 15].id, "agreed", "a,b"});
      sample.push_back({issue.id, "sampled", "census", std::nullopt, std::nullopt, 0});
      ++i;
    }
  });
  store.transaction([&] {
    datasets::replace_sample(store, "main", sample);
    auto audit = datasets::record_audit(store, "a,b", i, 0.9, 0.8, "pass");
    datasets::replace_final_labels(store, finals, audit);
  });
}

struct Scaled {
  ProcessRun at_10k, at_100k;
};

void record(const std::string& name, const Scaled& s) {
  results[name]["seconds_10k"] = s.at_10k.seconds;
  results[name]["seconds_100k"] = s.at_100k.seconds;
  results[name]["cpu_seconds_100k"] = s.at_100k.cpu_seconds;
  results[name]["peak_mib_10k"] = s.at_10k.peak_mib;
  results[name]["peak_mib_100k"] = s.at_100k.peak_mib;
  std::printf("  %-8s 10k %6.2f s %5.0f MiB   100k %6.2f s %5.0f MiB   100k/10k %.2f\n", name.c_str(),
              s.at_10k.seconds, s.at_10k.peak_mib, s.at_100k.seconds, s.at_100k.peak_mib,
              s.at_100k.seconds / s.at_10k.seconds);
}

// import, screen, classify and report as processes on stores of 10,000 and 100,000 corpus records. Each
// command runs five times on each store, the two sizes taking turns so that a slow spell of a shared
// machine falls on both, and the run of median time of each size is kept: one run of a 0.1 s command
// varies by a tenth or more here, enough to move a 100k/10k ratio across its target. Every run starts
// after the page cache has written the previous one's store out.
void bench_store_commands(const testing::TempDir& dir, const std::string& model_dir) {
  std::printf("store commands: whole processes on 10,000 and 100,000 corpus records, median of 5 each\n");
  const std::vector<int> sizes{10000, 100000};
  std::map<int, std::string> snapshot, db;
  for (int n : sizes) {
    snapshot[n] = write_snapshot(dir, n);
    db[n] = dir.file("store" + std::to_string(n) + ".db");
  }
  results["import"]["file_mib_100k"] = std::filesystem::file_size(snapshot[100000]) / 1048576.0;
  auto measure = [&](const std::function<ProcessRun(int)>& run) {
    std::map<int, std::vector<ProcessRun>> runs;
    for (int round = 0; round < 5; ++round) {
      for (int n : sizes) {
        sync();  // the previous run's dirty pages written out first, not during this run
        runs[n].push_back(run(n));
      }
    }
    return Scaled{median_run(runs[10000]), median_run(runs[100000])};
  };
  // Each import starts from an empty store; screen, classify and report redo the same work when run again.
  Scaled import = measure([&](int n) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db[n] + suffix);
    return run_faultline(db[n], {"import", "--snapshot", snapshot[n]});
  });
  for (int n : sizes) std::filesystem::remove(snapshot[n]);
  Scaled screen = measure([&](int n) { return run_faultline(db[n], {"screen"}); });
  Scaled classify = measure([&](int n) { return run_faultline(db[n], {"classify", "--models", model_dir}); });
  for (int n : sizes) label_every_issue(db[n]);
  Scaled report = measure([&](int n) {
    return run_faultline(db[n], {"report", "--out", dir.file("report" + std::to_string(n))});
  });
  record("import", import);
  record("screen", screen);
  record("classify", classify);
  record("report", report);
  bench_classify_baseline(dir, db[100000], model_dir);
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

  auto refresh_clock = Clock();
  auto refresh = miner::mine(db, o, {});
  double refresh_s = refresh_clock.wall_seconds();
  std::printf("  %ld requests (per-issue baseline %ld), %.2f s (baseline %.2f s)\n",
              static_cast<long>(s.stats.requests), naive_requests, wall, naive_wall);
  results["mining"] = {{"requests", s.stats.requests},
                       {"wall_s", wall},
                       {"cpu_s", cpu},
                       {"baseline_requests", naive_requests},
                       {"baseline_wall_s", naive_wall},
                       {"baseline_cpu_s", naive_cpu},
                       {"refresh_requests", refresh.stats.requests},
                       {"refresh_not_modified", refresh.stats.not_modified},
                       {"refresh_s", refresh_s}};
}

// The classifier in memory, without the store: the bundled issues over and over on this one thread, against
// the rules alone. The median of five rounds of 20,000, as one round varies by a fifth on a shared machine.
void bench_classify_in_memory(const std::string& db, const std::string& model_dir) {
  datasets::Database store(db);
  auto model = model::IssueClassifier::load(model_dir);
  auto issues = datasets::load_issues(store);
  const size_t n = 20000;
  auto median_rate = [&](const std::function<void(const datasets::IssueRecord&)>& work) {
    std::vector<double> rates;
    for (int round = 0; round < 5; ++round) {
      Clock c;
      for (size_t i = 0; i < n; ++i) work(issues[i % issues.size()]);
      rates.push_back(static_cast<double>(n) / c.wall_seconds());
    }
    std::sort(rates.begin(), rates.end());
    return std::make_pair(rates[rates.size() / 2], rates);
  };
  size_t abstained = 0, fired = 0;
  auto [full, full_rounds] =
      median_rate([&](const auto& issue) { abstained += model.predict(issue).abstain; });
  auto [rules, rules_rounds] = median_rate(
      [&](const auto& issue) { fired += model.rules().fired(model::document_text(issue)).size(); });
  std::printf(
      "  classify in memory %.0f issues/s (median of 5 rounds, %.0f to %.0f), rules alone %.0f issues/s\n",
      full, full_rounds.front(), full_rounds.back(), rules);
  results["classify_in_memory"] = {
      {"per_s", full}, {"rounds_per_s", full_rounds}, {"rules_only_per_s", rules}, {"rounds", 5}};
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows even when piped
  std::string machine = argc > 1 ? argv[1] : "";
  std::printf("faultline benchmarks (%s)\n", machine.c_str());
  results["machine"] = machine;
  testing::TempDir dir;
  bench_mining();
  std::string bundled = labeled_bundled_store(dir);
  std::string model_dir = dir.file("models");
  bench_training(dir, bundled, model_dir);
  bench_classify_in_memory(bundled, model_dir);
  bench_store_commands(dir, model_dir);
  std::string out = std::string(FAULTLINE_BINARY_DIR) + "/bench.json";
  std::ofstream(out) << results.dump(2) << '\n';
  std::printf("\n%s\nresults written to %s\n", bench::render_table(results).c_str(), out.c_str());
  return 0;
}
