#include "classifier/funnel/funnel.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "common/counted.hpp"
#include "common/error.hpp"
#include "common/repository_name.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::funnel {

namespace {

std::string method_of(const std::vector<datasets::SampleEntry>& entries) {
  if (entries.empty()) return "none";
  bool census =
      std::any_of(entries.begin(), entries.end(), [](const auto& e) { return e.origin == "census"; });
  bool replaced =
      std::any_of(entries.begin(), entries.end(), [](const auto& e) { return e.origin == "replacement"; });
  return std::string(census ? "census" : "draw") + (replaced ? "+replacement" : "");
}

// The name of the row of each stored spelling (StudyFunnel::rows).
std::map<std::string, std::string> row_names_of(const std::set<std::string>& spellings) {
  std::map<std::string, std::string> by_folded;
  for (const auto& r : taxonomy::Taxonomy::builtin().study().repositories)
    by_folded.emplace(common::folded_repository_name(r.id), r.id);
  for (const auto& s : spellings) by_folded.emplace(common::folded_repository_name(s), s);  // sorted
  std::map<std::string, std::string> out;
  for (const auto& s : spellings) out[s] = by_folded.at(common::folded_repository_name(s));
  return out;
}

}  // namespace

FunnelRow& FunnelRow::operator+=(const FunnelRow& other) {
  raw += other.raw;
  candidates += other.candidates;
  sampled += other.sampled;
  excluded += other.excluded;
  labeled += other.labeled;
  return *this;
}

void require_sample_name(const std::string& name) {
  static const RE2 allowed("[A-Za-z0-9._-]{1,64}");
  if (!RE2::FullMatch(name, allowed))
    throw Error("sample name '" + name + "' is not valid: use 1 to 64 letters, digits, '.', '_' or '-'");
}

namespace {

// compute_funnel's reads, which must see one state of the store: each issue id of the screening, the sample
// and the labels is then among the issues read first.
StudyFunnel funnel_of(datasets::Database& db, const std::string& sample_name) {
  StudyFunnel f;
  f.sample = sample_name;
  std::map<int64_t, std::string> repo_of;  // by issue id: the name of its row
  std::map<int64_t, std::string> spelling_of;
  std::set<std::string> spellings, keys;
  datasets::for_each_issue_headline_batch(db, 2000, [&](std::vector<datasets::IssueRecord>& issues) {
    for (const auto& issue : issues) {
      spelling_of[issue.id] = issue.repo;
      spellings.insert(issue.repo);
      f.stored_twice += !keys.insert(common::folded_repository_name(issue.key())).second;
    }
  });
  f.row_names = row_names_of(spellings);
  std::map<std::string, FunnelRow> rows;
  for (const auto& [id, spelling] : spelling_of) {
    const std::string& name = repo_of[id] = f.row_names.at(spelling);
    rows[name].repo = name;
    ++rows[name].raw;
  }
  std::set<int64_t> candidates, screened;
  for (const auto& [id, d] : datasets::load_screening(db)) {
    screened.insert(id);
    if (d.rule.rfind("scope:", 0) == 0) ++f.screened_by_person;
    if (d.made_candidate()) {
      candidates.insert(id);
      ++rows[repo_of[id]].candidates;
    }
  }
  f.not_screened = static_cast<int>(spelling_of.size() - screened.size());
  std::set<int64_t> kept, in_sample;
  std::set<int64_t> waiting;  // sampled members without a screening decision: counted again after a screen
  auto entries =
      sample_name.empty() ? std::vector<datasets::SampleEntry>{} : datasets::load_sample(db, sample_name);
  f.sample_method = method_of(entries);
  for (const auto& e : entries) {
    in_sample.insert(e.issue_id);
    if (e.origin == "draw") f.seed = static_cast<uint64_t>(e.seed);  // the store keeps its bits as int64
    if (!candidates.count(e.issue_id)) {
      if (screened.count(e.issue_id)) {
        ++f.sampled_not_candidates;
      } else if (e.status == "sampled") {
        waiting.insert(e.issue_id);
      }
      continue;
    }
    auto& row = rows[repo_of[e.issue_id]];
    if (e.status == "sampled") {
      ++row.sampled;
      kept.insert(e.issue_id);
    } else {
      ++row.excluded;
    }
  }
  f.sampled_not_screened = static_cast<int>(waiting.size());
  for (int64_t id : candidates) f.candidates_not_in_sample += !in_sample.count(id);
  for (const auto& [id, label] : datasets::load_final_labels(db)) {
    if (!kept.count(id)) {
      if (waiting.count(id)) {
        ++f.labeled_not_screened;
      } else if (!in_sample.count(id)) {
        ++f.labeled_outside;
      } else if (screened.count(id) && !candidates.count(id)) {  // as sampled_not_candidates counts them
        ++f.labeled_not_candidates;
      } else {
        ++f.labeled_excluded;
      }
      continue;
    }
    ++rows[repo_of[id]].labeled;
    f.final_issues.insert(id);
  }
  for (auto& [repo, row] : rows) f.rows.push_back(row);
  return f;
}

}  // namespace

StudyFunnel compute_funnel(datasets::Database& db, const std::string& sample_name) {
  StudyFunnel f;
  db.read_consistently([&] { f = funnel_of(db, sample_name); });
  return f;
}

FunnelRow funnel_total(const std::vector<FunnelRow>& rows) {
  FunnelRow total{"Total"};
  for (const auto& r : rows) total += r;
  return total;
}

nlohmann::json funnel_json(const StudyFunnel& f) {
  auto row_json = [](const FunnelRow& r) {
    return nlohmann::json{{"repo", r.repo},       {"raw", r.raw},           {"candidate", r.candidates},
                          {"sampled", r.sampled}, {"excluded", r.excluded}, {"final", r.labeled}};
  };
  nlohmann::json j = {{"sample", f.sample.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.sample)},
                      {"sample_method", f.sample_method},
                      {"repositories", nlohmann::json::array()}};
  if (f.sample_method.rfind("draw", 0) == 0) j["seed"] = f.seed;
  j["candidates_not_in_sample"] = f.candidates_not_in_sample;
  for (const auto& r : f.rows) j["repositories"].push_back(row_json(r));
  j["total"] = row_json(funnel_total(f.rows));
  j["screened_by_person"] = f.screened_by_person;
  j["labeled_outside_sample"] = f.labeled_outside;
  j["sampled_not_candidates"] = f.sampled_not_candidates;
  j["labeled_not_candidates"] = f.labeled_not_candidates;
  j["labeled_excluded"] = f.labeled_excluded;
  j["not_screened"] = f.not_screened;
  j["sampled_not_screened"] = f.sampled_not_screened;
  j["labeled_not_screened"] = f.labeled_not_screened;
  j["stored_twice"] = f.stored_twice;
  return j;
}

int labels_left_out(const StudyFunnel& f) {
  return f.labeled_outside + f.labeled_not_candidates + f.labeled_excluded + f.labeled_not_screened;
}

std::string funnel_note(const StudyFunnel& f) {
  std::string text;
  if (f.screened_by_person > 0)
    text = "Issues screened by a recorded scope decision (a person's, in the data) rather than the rules: " +
           std::to_string(f.screened_by_person) + ". ";
  if (f.sample_method == "none") {
    text += "No sample is recorded, so nothing counts as sampled or final (run 'faultline sample').";
  } else if (f.sample_method.rfind("census", 0) == 0) {
    text += "Sample '" + f.sample + "' is a census: every candidate when it was recorded, nothing drawn" +
            (f.sample_method == "census+replacement" ? ", with replacements." : ".");
    if (f.candidates_not_in_sample > 0)
      text +=
          " Candidates not in it (screened in since): " + std::to_string(f.candidates_not_in_sample) + ".";
  } else {
    text += "Sample '" + f.sample + "' is a repository-stratified draw (seed " + std::to_string(f.seed) +
            ")" + (f.sample_method == "draw+replacement" ? ", with replacements" : "") + ".";
  }
  if (f.labeled_outside > 0)
    text += " Not counted: issues with final labels outside it (" + std::to_string(f.labeled_outside) + ").";
  if (f.sampled_not_candidates > 0)
    text += " Not counted: sample members that a later screen no longer admits (" +
            std::to_string(f.sampled_not_candidates) + ", " + std::to_string(f.labeled_not_candidates) +
            " of them with final labels).";
  if (f.labeled_excluded > 0)
    text += " Not counted: final labels on sample members excluded from it (" +
            std::to_string(f.labeled_excluded) + ").";
  if (f.not_screened > 0) {
    text += " Not screened since they were stored or changed, so counted as raw only: " +
            common::counted(f.not_screened, "issue");
    if (f.sampled_not_screened > 0)
      text += ", " + std::to_string(f.sampled_not_screened) + " of them sampled (" +
              std::to_string(f.labeled_not_screened) + " of those with final labels)";
    text += " (run 'faultline screen').";
  }
  if (f.stored_twice > 0)
    text +=
        " Counted more than once: issues the store holds again under another spelling of their "
        "repository's name, as a store written before names were matched in any case may (" +
        std::to_string(f.stored_twice) + " more).";
  return text;
}

}  // namespace faultline::funnel
