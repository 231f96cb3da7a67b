#include "reproducers/slurm_run_dir.hpp"

#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "common/atomic_file.hpp"
#include "common/json_fields.hpp"
#include "common/strict_json.hpp"

namespace faultline::reproducers {

namespace {

constexpr const char* kPlanFormat = "faultline-slurm-run/3";
constexpr const char* kShardFormat = "faultline-shard/2";

void require_format(const nlohmann::json& j, const char* format, const std::string& path) {
  if (!j.is_object() || common::json_string(j, "format", path) != format)
    throw Error(path + ": not a " + std::string(format) +
                " file: a run planned by another faultline version is collected by that version, or planned "
                "again in a "
                "new --run-dir");
}

// A run's token as planned: 16 hexadecimal digits.
std::string run_token(const nlohmann::json& j, const std::string& path) {
  std::string run = common::json_string(j, "run", path);
  if (run.size() != 16 || run.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw Error(path + ": field 'run' is not a run's token (16 hexadecimal digits)");
  return run;
}

int positive(const nlohmann::json& j, const char* name, const std::string& path, int minimum) {
  int64_t v = common::json_integer(j, name, path);
  if (v < minimum || v > 1'000'000)
    throw Error(path + ": field '" + name + "' out of range: " + std::to_string(v));
  return static_cast<int>(v);
}

// The plan's run names by shard: one non-empty list of strings per shard, no name twice.
std::vector<std::vector<std::string>> shard_runs(const nlohmann::json& j, const std::string& path,
                                                 int shards) {
  if (!j.contains("shard_runs") || !j.at("shard_runs").is_array() ||
      j.at("shard_runs").size() != static_cast<size_t>(shards))
    throw Error(path + ": field 'shard_runs' must be a list of " + std::to_string(shards) +
                " lists of runs, one per shard");
  std::vector<std::vector<std::string>> out;
  std::set<std::string> seen;
  for (const auto& shard : j.at("shard_runs")) {
    if (!shard.is_array() || shard.empty())
      throw Error(path + ": each shard's entry in 'shard_runs' must be a non-empty list");
    out.emplace_back();
    for (const auto& name : shard) {
      if (!name.is_string()) throw Error(path + ": 'shard_runs' must hold run names (strings)");
      if (!seen.insert(name.get<std::string>()).second)
        throw Error(path + ": " + name.get<std::string>() + " is planned in two shards");
      out.back().push_back(name.get<std::string>());
    }
  }
  return out;
}

}  // namespace

std::string array_name(const std::string& constraint) {
  if (constraint.empty()) return "default";
  std::string out = constraint;
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  // A name starting with '.' could be "..", a folder outside results/, or a hidden one.
  if (out.front() == '.') out.front() = '_';
  return out;
}

std::string plan_path(const std::string& run_dir) { return run_dir + "/plan.json"; }
std::string shard_path(const std::string& run_dir, int shard) {
  return run_dir + "/shard-" + std::to_string(shard) + ".json";
}
std::string script_path(const std::string& run_dir, const std::string& array) {
  return run_dir + "/array-" + array + ".sbatch";
}
std::string results_dir(const std::string& run_dir, const std::string& array) {
  return run_dir + "/results/" + array;
}
std::string task_results_path(const std::string& run_dir, const std::string& array, int shard) {
  return results_dir(run_dir, array) + "/task-" + std::to_string(shard) + ".json";
}
std::string logs_dir(const std::string& run_dir) { return run_dir + "/logs"; }

void write_run_plan(const std::string& run_dir, const RunPlan& plan) {
  nlohmann::json arrays = nlohmann::json::array();
  for (const auto& a : plan.arrays) arrays.push_back({{"name", a.name}, {"constraint", a.constraint}});
  nlohmann::json j{{"format", kPlanFormat},
                   {"run", plan.run},
                   {"mode", plan.mode},
                   {"modes", plan.modes},
                   {"repeat", plan.repeat},
                   {"shards", plan.shards},
                   {"arrays", arrays},
                   {"shard_runs", plan.shard_runs},
                   {"max_parallel", plan.max_parallel}};
  common::write_file_atomically(plan_path(run_dir), j.dump(2) + "\n");
}

RunPlan read_run_plan(const std::string& run_dir) {
  std::string path = plan_path(run_dir);
  nlohmann::json j = common::parse_json_file_strictly(path);
  require_format(j, kPlanFormat, path);
  RunPlan plan;
  plan.run = run_token(j, path);
  plan.mode = common::json_string(j, "mode", path);
  plan.repeat = positive(j, "repeat", path, 1);
  plan.shards = positive(j, "shards", path, 1);
  plan.max_parallel = positive(j, "max_parallel", path, 0);
  if (!j.contains("modes") || !j.at("modes").is_array()) throw Error(path + ": field 'modes' must be a list");
  for (const auto& m : j.at("modes")) {
    if (!m.is_string()) throw Error(path + ": 'modes' must hold strings");
    plan.modes.push_back(m.get<std::string>());
  }
  if (!j.contains("arrays") || !j.at("arrays").is_array() || j.at("arrays").empty())
    throw Error(path + ": field 'arrays' must be a non-empty list");
  for (const auto& a : j.at("arrays")) {
    plan.arrays.push_back({common::json_string(a, "name", path), common::json_string(a, "constraint", path)});
    // The name is made from the constraint when planned; any other keeps the results elsewhere.
    const auto& array = plan.arrays.back();
    if (array.name != array_name(array.constraint))
      throw Error(path + ": array '" + array.name + "' is not the name of its constraint '" +
                  array.constraint + "' ('" + array_name(array.constraint) + "')");
    if (std::count_if(plan.arrays.begin(), plan.arrays.end(),
                      [&](const auto& b) { return b.name == array.name; }) > 1)
      throw Error(path + ": array '" + array.name + "' is planned twice");
  }
  plan.shard_runs = shard_runs(j, path, plan.shards);
  return plan;
}

void write_shard_file(const std::string& path, const ShardFile& shard) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : shard.runs) runs.push_back({{"id", r.id}, {"mode", r.mode}, {"variant", r.variant}});
  nlohmann::json j{{"format", kShardFormat},
                   {"run", shard.run},
                   {"shard", shard.shard},
                   {"repeat", shard.repeat},
                   {"runs", runs}};
  common::write_file_atomically(path, j.dump(2) + "\n");
}

ShardFile read_shard_file(const std::string& path) {
  nlohmann::json j = common::parse_json_file_strictly(path);
  require_format(j, kShardFormat, path);
  ShardFile shard;
  shard.run = run_token(j, path);
  shard.shard = positive(j, "shard", path, 0);
  shard.repeat = positive(j, "repeat", path, 1);
  if (!j.contains("runs") || !j.at("runs").is_array()) throw Error(path + ": field 'runs' must be a list");
  for (const auto& r : j.at("runs")) {
    if (!r.is_object()) throw Error(path + ": each run must be an object");
    shard.runs.push_back({common::json_string(r, "id", path), common::json_string(r, "mode", path),
                          common::json_string(r, "variant", path)});
  }
  return shard;
}

std::string new_run_token() {
  std::random_device source;
  std::uniform_int_distribution<uint64_t> draw;
  char token[17];
  std::snprintf(token, sizeof token, "%016llx", static_cast<unsigned long long>(draw(source)));
  return token;
}

}  // namespace faultline::reproducers
