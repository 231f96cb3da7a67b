// SQL for the audits table: each audit of the raters' labels, with its gate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

struct AuditRecord {
  int64_t id = 0;
  std::string raters;  // comma-separated, in the order the audit compared them
  int n = 0;
  double kappa_joint = 0;
  double threshold = 0;
  std::string gate;  // pass | fail
};

int64_t record_audit(Database& db, const std::string& raters, int n, double kappa_joint, double threshold,
                     const std::string& gate);
std::optional<AuditRecord> latest_audit(Database& db);
// The audit that made the store's final labels what they are; none when there are none.
std::optional<AuditRecord> audit_of_final_labels(Database& db);

}  // namespace faultline::datasets
