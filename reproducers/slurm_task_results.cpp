#include "reproducers/slurm_task_results.hpp"

#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/json_fields.hpp"
#include "common/strict_json.hpp"
#include "reproducers/run_result_json.hpp"

namespace faultline::reproducers {

namespace {
constexpr const char* kFormat = "faultline-task-results/2";
}

void write_task_results(const std::string& path, const TaskResults& task) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : task.results) results.push_back(run_result_json(r));
  nlohmann::json j{{"format", kFormat},
                   {"run", task.run},
                   {"shard", task.shard},
                   {"node", task.node},
                   {"device", task.device},
                   {"compute_capability", task.compute_capability},
                   {"driver", task.driver},
                   {"cuda_toolkit", task.cuda_toolkit},
                   {"slurm_job_id", task.slurm_job_id},
                   {"slurm_task_id", task.slurm_task_id},
                   {"results", results}};
  // Harness output need not be UTF-8; the file must stay readable JSON.
  common::write_file_atomically(path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

TaskResults read_task_results(const std::string& path) {
  const nlohmann::json j = common::parse_json_file_strictly(path);
  if (!j.is_object() || common::json_string(j, "format", path) != kFormat)
    throw Error(path + ": not a " + std::string(kFormat) + " file");
  TaskResults task;
  task.run = common::json_string(j, "run", path);
  task.shard = static_cast<int>(common::json_integer(j, "shard", path));
  task.node = common::json_string(j, "node", path);
  task.device = common::json_string(j, "device", path);
  task.compute_capability = common::json_string(j, "compute_capability", path);
  task.driver = common::json_string(j, "driver", path);
  task.cuda_toolkit = common::json_string(j, "cuda_toolkit", path);
  task.slurm_job_id = common::json_string(j, "slurm_job_id", path);
  task.slurm_task_id = common::json_string(j, "slurm_task_id", path);
  if (!j.contains("results") || !j.at("results").is_array())
    throw Error(path + ": field 'results' must be a list");
  for (size_t i = 0; i < j.at("results").size(); ++i) {
    task.results.push_back(
        run_result_from_json(j.at("results").at(i), path + ": result " + std::to_string(i)));
    // Every run of a task ran on its node's GPU, if any.
    const RunResult& r = task.results.back();
    if (r.mode == "gpu" && r.outcome != "skipped" && r.device != task.device)
      throw Error(path + ": result " + std::to_string(i) + " ran on '" + r.device +
                  "', but the task's GPU is '" + task.device + "'");
  }
  return task;
}

}  // namespace faultline::reproducers
