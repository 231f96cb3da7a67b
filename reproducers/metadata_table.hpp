// The reproducer corpus as one metadata table, Defects4J-style, generated from the manifests and the
// store's latest suite results (never kept by hand): `faultline repro list --format md|csv|json`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "datasets/store/suite_store.hpp"
#include "reproducers/manifest.hpp"

namespace faultline::reproducers {

struct MetadataRow {
  std::string id;
  std::string symptom;
  std::string root_cause;
  std::string source;        // the source issue URLs, or the documented mechanism with no single issue
  std::string fix;           // the fix's reference, "unknown" when the manifest has none
  std::string checks;        // what each mode checks, e.g. "build: buggy fails with /…/, fixed compiles"
  std::string last_outcome;  // "build: built/built; host: reproduced/pass" (buggy/fixed), or "not run"
};

std::vector<MetadataRow> metadata_rows(const std::vector<Manifest>& manifests,
                                       const std::vector<datasets::SuiteResult>& latest);

std::string metadata_markdown(const std::vector<MetadataRow>& rows);
std::string metadata_csv(const std::vector<MetadataRow>& rows);
nlohmann::json metadata_json(const std::vector<MetadataRow>& rows);

}  // namespace faultline::reproducers
