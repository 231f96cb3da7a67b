// Table I of the study from the store: raw, candidate, sampled and finally labeled issues per repository.
// Each stage is a subset of the one before it (final ⊆ sampled ⊆ candidates ⊆ raw), so no column can exceed
// its left neighbour; whatever falls outside the chain (labels on issues out of the sample, sample members
// that a later screen no longer admits) is counted apart, never dropped silently.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <set>
#include <string>
#include <vector>

#include "datasets/store/database.hpp"

namespace faultline::funnel {

struct FunnelRow {
  std::string repo;
  int raw = 0;
  int candidates = 0;
  int sampled = 0;   // candidates kept in the sample (replacements included, exclusions not)
  int excluded = 0;  // candidates taken out of the sample with a reason
  int labeled = 0;   // sampled issues with a final manual label: the study's "final" column

  FunnelRow& operator+=(const FunnelRow& other);  // adds the counts; keeps the name
};

struct StudyFunnel {
  std::string sample;  // the sample followed; empty when the store has none
  // How the sample came to be: "census" (every candidate when recorded) or "draw" (stratified, seeded), each
  // with "+replacement" when members were replaced; or "none".
  std::string sample_method = "none";
  uint64_t seed = 0;  // of a draw, as `sample --seed` took it
  // Sorted by repository, one per repository: GitHub's names ignore case, so the spellings of one name are
  // one row, under the study's spelling for one of its repositories, else the first stored spelling in
  // sorted order. funnel_total sums them.
  std::vector<FunnelRow> rows;
  std::map<std::string, std::string> row_names;  // each stored spelling → the name of its row
  std::set<int64_t> final_issues;                // the issues of the "final" column
  // Final labels not counted as final, each in one of these: on issues outside the sample; on sample
  // members a later screen no longer admits; on members excluded from the sample (replaced); and on sampled
  // members waiting for a screen (labeled_not_screened, below).
  int labeled_outside = 0;
  int labeled_not_candidates = 0;
  int labeled_excluded = 0;
  int candidates_not_in_sample = 0;  // for a census: candidates screened in after it was recorded
  int screened_by_person = 0;  // screening decisions that followed a person's scope decision, not the rules
  // Sample members that the latest screen does not admit (the pool was screened again after the draw).
  int sampled_not_candidates = 0;
  // Issues without a screening decision: stored since the last screen, or changed in what screening reads
  // (migration 13 drops the decision); of them, the sample's sampled members, and of those, the ones with
  // final labels.
  int not_screened = 0;
  int sampled_not_screened = 0;
  int labeled_not_screened = 0;
  // Issues stored again under another spelling of their repository's name, by a store written before names
  // were matched in any case (each spelling had a row of its own): each copy after the first, which the
  // rows count as another issue.
  int stored_twice = 0;
};

// Throws faultline::Error unless `name` is 1-64 of [A-Za-z0-9._-] (it is printed in tables and notes).
void require_sample_name(const std::string& name);

StudyFunnel compute_funnel(datasets::Database& db, const std::string& sample_name);
FunnelRow funnel_total(const std::vector<FunnelRow>& rows);
nlohmann::json funnel_json(const StudyFunnel& funnel);
// Where the candidates and the sample came from and what fell outside, for Table I's note and the chart.
std::string funnel_note(const StudyFunnel& funnel);
// The final labels the final column does not count, all four kinds together.
int labels_left_out(const StudyFunnel& funnel);

}  // namespace faultline::funnel
