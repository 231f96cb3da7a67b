#include "datasets/store/suite_store.hpp"

#include <nlohmann/json.hpp>

#include "common/clock.hpp"

namespace faultline::datasets {

void link_reproducer(Database& db, int64_t issue_id, const std::string& repro_id) {
  db.prepare("INSERT OR IGNORE INTO repro_links(issue_id, repro_id) VALUES (?, ?)")
      .bind_all(issue_id, repro_id)
      .run();
}

std::map<int64_t, std::vector<std::string>> load_reproducer_links(Database& db) {
  Statement s = db.prepare("SELECT issue_id, repro_id FROM repro_links ORDER BY issue_id, repro_id");
  std::map<int64_t, std::vector<std::string>> out;
  while (s.step()) out[s.integer(0)].push_back(s.text(1));
  return out;
}

std::vector<std::string> load_reproducer_links(Database& db, int64_t issue_id) {
  Statement s = db.prepare("SELECT repro_id FROM repro_links WHERE issue_id = ? ORDER BY repro_id");
  s.bind_all(issue_id);
  std::vector<std::string> out;
  while (s.step()) out.push_back(s.text(0));
  return out;
}

void replace_reproducer_catalog(Database& db, const std::vector<CatalogEntry>& entries) {
  db.exec("DELETE FROM reproducers");
  Statement insert = db.prepare(
      "INSERT INTO reproducers(id, title, symptom, root_cause, source_issues) VALUES (?, ?, ?, ?, ?)");
  for (const auto& e : entries) {
    insert.bind_all(e.id, e.title, e.symptom, e.root_cause, nlohmann::json(e.source_issues).dump());
    insert.run();
  }
}

std::vector<CatalogEntry> load_reproducer_catalog(Database& db) {
  Statement s =
      db.prepare("SELECT id, title, symptom, root_cause, source_issues FROM reproducers ORDER BY id");
  std::vector<CatalogEntry> out;
  while (s.step()) {
    out.push_back({s.text(0), s.text(1), s.text(2), s.text(3),
                   nlohmann::json::parse(s.text(4)).get<std::vector<std::string>>()});
  }
  return out;
}

int64_t start_suite_run(Database& db, const std::string& mode, int repeat, const SlurmOrigin& origin) {
  db.prepare(
        "INSERT INTO suite_runs(mode, started_at, repeat, slurm_run_dir, slurm_array) VALUES (?, ?, ?, ?, ?)")
      .bind_all(mode, common::utc_now(), repeat, origin.run_dir, origin.array)
      .run();
  return db.last_insert_id();
}

void record_suite_result(Database& db, int64_t run_id, const SuiteResult& r) {
  db.prepare(
        "INSERT OR REPLACE INTO suite_results(run_id, repro_id, variant, mode, outcome, detail, seconds, "
        "runs, "
        "runs_as_expected, stability, cuda_toolkit, driver, compute_capability, node, device, shard) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
      .bind_all(run_id, r.repro_id, r.variant, r.mode, r.outcome, r.detail, r.seconds, r.runs,
                r.runs_as_expected, r.stability, r.cuda_toolkit, r.driver, r.compute_capability, r.node,
                r.device, r.shard)
      .run();
}

namespace {

constexpr const char* kResultColumns =
    "repro_id, variant, mode, outcome, detail, seconds, runs, runs_as_expected, stability, cuda_toolkit, "
    "driver, "
    "compute_capability, node, device, shard";

std::vector<SuiteResult> read_results(Statement& s) {
  std::vector<SuiteResult> out;
  while (s.step()) {
    out.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.real(5),
                   static_cast<int>(s.integer(6)), static_cast<int>(s.integer(7)), s.text(8), s.text(9),
                   s.text(10), s.text(11), s.text(12), s.text(13),
                   s.is_null(14) ? std::nullopt : std::optional<int64_t>(s.integer(14))});
  }
  return out;
}

}  // namespace

std::vector<SuiteResult> latest_suite_results(Database& db) {
  Statement s = db.prepare(std::string("SELECT ") + kResultColumns +
                           " FROM suite_results r WHERE run_id = (SELECT MAX(run_id) FROM suite_results x "
                           "WHERE x.repro_id = r.repro_id AND x.variant = r.variant AND x.mode = r.mode) "
                           "ORDER BY repro_id, mode, variant");
  return read_results(s);
}

std::vector<SuiteResult> latest_gpu_results_by_architecture(Database& db) {
  Statement s = db.prepare(std::string("SELECT ") + kResultColumns +
                           " FROM suite_results r WHERE mode = 'gpu' AND compute_capability <> 'none' AND "
                           "run_id = (SELECT MAX(run_id) FROM suite_results x WHERE x.repro_id = r.repro_id "
                           "AND x.variant = r.variant AND x.mode = 'gpu' AND "
                           "x.compute_capability = r.compute_capability) "
                           "ORDER BY repro_id, compute_capability, variant");
  return read_results(s);
}

void record_slurm_job(Database& db, const SlurmJob& job) {
  db.prepare(
        "INSERT INTO slurm_jobs(run_dir, array_name, job_id, array_indexes, submitted_at) VALUES (?, ?, ?, "
        "?, ?)")
      .bind_all(job.run_dir, job.array, job.job_id, job.array_indexes, common::utc_now())
      .run();
}

std::vector<SlurmJob> load_slurm_jobs(Database& db, const std::string& run_dir) {
  Statement s = db.prepare(
      "SELECT run_dir, array_name, job_id, array_indexes FROM slurm_jobs WHERE run_dir = ? ORDER BY rowid");
  s.bind_all(run_dir);
  std::vector<SlurmJob> out;
  while (s.step()) out.push_back({s.text(0), s.text(1), s.text(2), s.text(3)});
  return out;
}

}  // namespace faultline::datasets
