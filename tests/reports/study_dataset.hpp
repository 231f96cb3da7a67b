// A labeled dataset with exactly the study's published counts (Tables I–III), built from the paper's
// numbers written out here, not from the taxonomy file, so the report is checked against the paper.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "reports/report_data.hpp"

namespace faultline::testing {

inline reports::ReportData study_report_data() {
  // Table II: symptom counts per repository, columns FlashInfer, FlashAttention, Triton, CUTLASS, DeepGEMM,
  // xFormers, bitsandbytes.
  const std::vector<std::string> repos = {"flashinfer-ai/flashinfer",
                                          "Dao-AILab/flash-attention",
                                          "triton-lang/triton",
                                          "NVIDIA/cutlass",
                                          "deepseek-ai/DeepGEMM",
                                          "facebookresearch/xformers",
                                          "bitsandbytes-foundation/bitsandbytes"};
  const std::vector<std::pair<std::string, std::vector<int>>> table2 = {
      {"deployment_failure", {3, 5, 13, 6, 0, 8, 47}},
      {"build_failure", {7, 5, 29, 22, 2, 3, 5}},
      {"crash", {18, 6, 10, 8, 1, 4, 16}},
      {"incorrect_functionality", {6, 7, 16, 13, 1, 1, 9}},
      {"performance_degradation", {2, 4, 7, 5, 0, 3, 2}},
      {"hang", {1, 1, 2, 2, 0, 0, 0}}};
  // Table III: root-cause counts (they pair with symptoms arbitrarily; Table III does not cross them).
  const std::vector<std::pair<std::string, int>> table3 = {{"code_logic_error", 22},
                                                           {"incorrect_numerical_computation", 8},
                                                           {"incorrect_indexing", 4},
                                                           {"tensor_layout_mismatch", 12},
                                                           {"improper_memory_access", 7},
                                                           {"state_mismanagement", 2},
                                                           {"concurrency_error", 5},
                                                           {"improper_kernel_dispatch", 10},
                                                           {"resource_mismanagement", 6},
                                                           {"performance_bug", 17},
                                                           {"api_misuse", 26},
                                                           {"incorrect_compiler_transformation", 46},
                                                           {"build_misconfiguration", 35},
                                                           {"hardware_incompatibility", 24},
                                                           {"software_incompatibility", 76}};
  std::vector<std::string> causes;
  for (const auto& [id, n] : table3) causes.insert(causes.end(), n, id);

  reports::ReportData data;
  int number = 0;
  for (const auto& [symptom, per_repo] : table2) {
    for (size_t r = 0; r < repos.size(); ++r) {
      for (int k = 0; k < per_repo[r]; ++k) {
        reports::Case c;
        c.repo = repos[r];
        c.issue = repos[r] + "#" + std::to_string(++number);
        c.url = "https://github.com/" + repos[r] + "/issues/" + std::to_string(number);
        c.title = "case " + std::to_string(number);
        c.symptom = symptom;
        c.root_cause = causes[number - 1];
        c.provenance = "agreed";
        data.cases.push_back(c);
      }
    }
  }
  // Table I.
  const int raw[] = {1051, 1786, 2205, 1931, 180, 722, 1224};
  const int candidate[] = {390, 302, 815, 597, 38, 206, 833};
  const int final_count[] = {37, 28, 77, 56, 4, 19, 79};
  for (size_t r = 0; r < repos.size(); ++r) {
    funnel::FunnelRow row;
    row.repo = repos[r];
    row.raw = raw[r];
    row.candidates = candidate[r];
    row.sampled = final_count[r];  // the study's Table I has no sampled column: its sample after replacements
    row.labeled = final_count[r];
    data.funnel.rows.push_back(row);
  }
  data.funnel.sample = "main";
  data.funnel.sample_method = "draw+replacement";
  data.audit_kappa = 0.87;
  data.audit_n = 300;
  return data;
}

}  // namespace faultline::testing
