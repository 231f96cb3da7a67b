#include "classifier/funnel/sampler.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <set>

#include "classifier/funnel/funnel.hpp"
#include "common/clock.hpp"
#include "common/counted.hpp"
#include "common/error.hpp"
#include "common/fnv1a.hpp"
#include "common/joined.hpp"
#include "common/one_line.hpp"
#include "common/seeded_random.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"

namespace faultline::funnel {

std::vector<int> allocate_largest_remainder(const std::vector<int>& counts, int total) {
  int64_t sum = std::accumulate(counts.begin(), counts.end(), int64_t{0});
  if (sum == 0) throw Error("sample: there are no candidates to draw from (run 'faultline screen' first)");
  if (total > sum) {
    throw Error("sample: asked for " + std::to_string(total) + " issues but there are only " +
                std::to_string(sum) + " candidates");
  }
  std::vector<int> shares(counts.size());
  std::vector<int64_t> remainders(counts.size());  // in units of 1/sum, so comparisons are exact
  int assigned = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    int64_t scaled = int64_t{counts[i]} * total;
    shares[i] = static_cast<int>(scaled / sum);
    remainders[i] = scaled % sum;
    assigned += shares[i];
  }
  std::vector<size_t> order(counts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (remainders[a] != remainders[b]) return remainders[a] > remainders[b];
    return counts[a] > counts[b];
  });
  for (size_t k = 0; assigned < total; ++k, ++assigned) ++shares[order[k]];
  return shares;
}

namespace {

struct Candidate {
  int64_t issue_id;
  int64_t number;
  int64_t created;  // -1 when unknown
};

// The candidates of the last screen by repository. An issue stored or changed since has no decision and
// would be in no stratum: refused (`verb` names who refuses), as a draw without it would not be of the
// candidates it claims, nor a replacement the nearest of them.
std::map<std::string, std::vector<Candidate>> candidates_by_repository(datasets::Database& db,
                                                                       const std::string& verb) {
  auto decisions = datasets::load_screening(db);
  std::map<std::string, std::vector<Candidate>> out;
  int not_screened = 0;
  for (const auto& issue : datasets::load_issues(db)) {
    auto it = decisions.find(issue.id);
    not_screened += it == decisions.end();
    if (it != decisions.end() && it->second.made_candidate()) {
      out[issue.repo].push_back({issue.id, issue.number, common::parse_iso8601(issue.created)});
    }
  }
  if (not_screened > 0) {
    throw Error(verb + ": " + common::counted(not_screened, "issue") +
                " not screened since stored or changed would be left out of the candidates sampled from (run "
                "'faultline screen' first)");
  }
  for (auto& [repo, list] : out) {
    std::sort(list.begin(), list.end(),
              [](const Candidate& a, const Candidate& b) { return a.number < b.number; });
  }
  return out;
}

// Issues a rater or an adjudicator has labeled: the work a new draw must not silently discard.
std::set<int64_t> labeled_issues(datasets::Database& db) {
  std::set<int64_t> ids;
  for (const auto& rater : datasets::list_raters(db)) {
    for (const auto& l : datasets::load_manual_labels(db, rater)) ids.insert(l.issue_id);
  }
  for (const auto& [id, a] : datasets::load_adjudications(db)) ids.insert(id);
  return ids;
}

// "a/b#1, a/b#2 and 3 more": at most ten of `keys`.
std::string first_ten(const std::vector<std::string>& keys) {
  std::string list;
  for (size_t i = 0; i < keys.size() && i < 10; ++i) list += (i ? ", " : "") + keys[i];
  if (keys.size() > 10) list += " and " + std::to_string(keys.size() - 10) + " more";
  return list;
}

// A new draw replaces sample `name` whole: it is refused, unless forced, when it would drop issues raters
// labeled or discard exclusions a person recorded, with their reasons (an excluded issue could even come back
// as sampled). Forced, it says how many of each it replaced.
SampleDraw record_draw(datasets::Database& db, const std::string& name,
                       const std::vector<datasets::SampleEntry>& draw,
                       std::map<std::string, StratumDraw> strata, bool force) {
  std::set<int64_t> kept;
  for (const auto& e : draw) kept.insert(e.issue_id);
  auto labeled = labeled_issues(db);
  std::vector<std::string> dropped, exclusions;
  for (const auto& e : datasets::load_sample(db, name)) {
    if (e.status == "sampled" && labeled.count(e.issue_id) && !kept.count(e.issue_id)) {
      dropped.push_back(datasets::load_issue(db, e.issue_id).key());
    } else if (e.status == "excluded") {
      exclusions.push_back(datasets::load_issue(db, e.issue_id).key() + " (" +
                           common::one_line(e.reason.value_or("")) + ")");
    }
  }
  std::vector<std::string> losses;
  if (!dropped.empty())
    losses.push_back("drop " + common::counted(static_cast<long long>(dropped.size()), "labeled issue") +
                     " from it (" + first_ten(dropped) + ")");
  if (!exclusions.empty())
    losses.push_back("discard " + common::counted(static_cast<long long>(exclusions.size()), "exclusion") +
                     " and the reasons recorded for them (" + first_ten(exclusions) + ")");
  if (!losses.empty() && !force)
    throw Error("sample: drawing '" + name + "' again would " + common::joined(losses, " and ") +
                "; use --force to replace the sample anyway");
  db.transaction([&] { datasets::replace_sample(db, name, draw); });
  return {std::move(strata), static_cast<int>(dropped.size()), static_cast<int>(exclusions.size())};
}

}  // namespace

SampleDraw draw_sample(datasets::Database& db, const std::string& name, int total, uint64_t seed,
                       bool force) {
  require_sample_name(name);
  if (total <= 0) throw Error("sample: --total must be positive");
  auto pools = candidates_by_repository(db, "sample");
  std::vector<std::string> repos;
  std::vector<int> counts;
  for (const auto& [repo, list] : pools) {
    repos.push_back(repo);
    counts.push_back(static_cast<int>(list.size()));
  }
  std::vector<int> shares = allocate_largest_remainder(counts, total);
  std::map<std::string, StratumDraw> summary;
  std::vector<datasets::SampleEntry> entries;
  for (size_t r = 0; r < repos.size(); ++r) {
    const auto& pool = pools[repos[r]];
    // Each stratum gets its own stream derived from the seed, so adding a repository leaves the others' draws
    // alone.
    uint64_t stratum_seed = seed ^ common::fnv1a(repos[r]);
    for (size_t index : common::seeded_choice(pool.size(), shares[r], stratum_seed)) {
      entries.push_back(
          {pool[index].issue_id, "sampled", "draw", std::nullopt, std::nullopt, static_cast<int64_t>(seed)});
    }
    summary[repos[r]] = {counts[r], shares[r]};
  }
  return record_draw(db, name, entries, std::move(summary), force);
}

SampleDraw census_sample(datasets::Database& db, const std::string& name, bool force) {
  require_sample_name(name);
  auto pools = candidates_by_repository(db, "sample");
  if (pools.empty()) throw Error("sample: there are no candidates to take (run 'faultline screen' first)");
  std::map<std::string, StratumDraw> summary;
  std::vector<datasets::SampleEntry> entries;
  for (const auto& [repo, pool] : pools) {
    for (const auto& c : pool)
      entries.push_back({c.issue_id, "sampled", "census", std::nullopt, std::nullopt, 0});
    summary[repo] = {static_cast<int>(pool.size()), static_cast<int>(pool.size())};
  }
  return record_draw(db, name, entries, std::move(summary), force);
}

Replacement replace_in_sample(datasets::Database& db, const std::string& name, const std::string& asked_repo,
                              int64_t number, const std::string& reason) {
  if (reason.empty())
    throw Error("sample replace: --reason is required, so the exclusion can be audited later");
  int64_t issue_id = datasets::require_issue(db, asked_repo, number, "sample replace");
  // The name as stored (a lookup ignores case), by which the candidates are grouped.
  const datasets::IssueRecord issue = datasets::load_issue(db, issue_id);
  const std::string& repo = issue.repo;
  auto sample = datasets::load_sample(db, name);
  std::set<int64_t> in_sample;
  const datasets::SampleEntry* target = nullptr;
  for (const auto& e : sample) {
    in_sample.insert(e.issue_id);
    if (e.issue_id == issue_id) target = &e;
  }
  std::string key = repo + "#" + std::to_string(number);
  if (!target) throw Error("sample replace: " + key + " is not in sample '" + name + "'");
  if (target->status != "sampled")
    throw Error("sample replace: " + key + " was already excluded from '" + name + "'");
  int64_t seed = target->seed;

  auto pools = candidates_by_repository(db, "sample replace");
  int64_t anchor = common::parse_iso8601(issue.created);
  std::optional<Candidate> best;
  int64_t best_distance = 0;
  // Unknown creation times rank after every known one, as distances and as creation times.
  constexpr int64_t kUnknown = std::numeric_limits<int64_t>::max();
  auto known_or_last = [&](int64_t created) { return created < 0 ? kUnknown : created; };
  for (const auto& c : pools[repo]) {
    if (in_sample.count(c.issue_id)) continue;  // sampled, excluded or already a replacement
    int64_t distance = (c.created < 0 || anchor < 0) ? kUnknown : std::llabs(c.created - anchor);
    bool better = !best || distance < best_distance ||
                  (distance == best_distance && (known_or_last(c.created) < known_or_last(best->created) ||
                                                 (c.created == best->created && c.number < best->number)));
    if (better) {
      best = c;
      best_distance = distance;
    }
  }
  if (!best) throw Error("sample replace: no unsampled candidate of " + repo + " is left to replace " + key);
  db.transaction([&] {
    datasets::exclude_from_sample(db, name, issue_id, reason, best->issue_id);
    datasets::add_to_sample(db, name,
                            {best->issue_id, "sampled", "replacement", std::nullopt, std::nullopt, seed});
  });
  return {repo + "#" + std::to_string(best->number),
          best_distance == kUnknown ? std::nullopt : std::optional<int64_t>(best_distance)};
}

}  // namespace faultline::funnel
