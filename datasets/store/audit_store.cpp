#include "datasets/store/audit_store.hpp"

#include "common/clock.hpp"

namespace faultline::datasets {

namespace {

std::optional<AuditRecord> first_audit(Statement& s) {
  if (!s.step()) return std::nullopt;
  return AuditRecord{s.integer(0), s.text(1), static_cast<int>(s.integer(2)),
                     s.real(3),    s.real(4), s.text(5)};
}

}  // namespace

int64_t record_audit(Database& db, const std::string& raters, int n, double kappa_joint, double threshold,
                     const std::string& gate) {
  db.prepare("INSERT INTO audits(raters, n, kappa_joint, threshold, gate, audited_at) VALUES (?,?,?,?,?,?)")
      .bind_all(raters, n, kappa_joint, threshold, gate, common::utc_now())
      .run();
  return db.last_insert_id();
}

std::optional<AuditRecord> latest_audit(Database& db) {
  auto s =
      db.prepare("SELECT id, raters, n, kappa_joint, threshold, gate FROM audits ORDER BY id DESC LIMIT 1");
  return first_audit(s);
}

std::optional<AuditRecord> audit_of_final_labels(Database& db) {
  auto s = db.prepare(
      "SELECT id, raters, n, kappa_joint, threshold, gate FROM audits WHERE id = (SELECT MAX(audit_id) FROM "
      "final_labels)");
  return first_audit(s);
}

}  // namespace faultline::datasets
