#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "classifier/funnel/funnel.hpp"
#include "classifier/funnel/sampler.hpp"
#include "classifier/funnel/screening.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/text_table.hpp"
#include "common/counted.hpp"
#include "common/one_line.hpp"
#include "common/repository_name.hpp"
#include "datasets/store/funnel_store.hpp"

namespace faultline::cli {

namespace {

struct ScreenOptions {
  std::string rules_file;
  bool rules_only = false;
};

struct SampleOptions {
  int total = 300;
  uint64_t seed = 1;
  std::string name;  // a new sample: "main" when empty; replace: as datasets::resolve_sample chooses
  bool census = false;
  bool force = false;
};

struct ReplaceOptions {
  std::string issue_key;
  std::string reason;
};

struct FunnelOptions {
  std::string name;
};

void screen(const Context& ctx, const ScreenOptions& o) {
  auto db = ctx.open_db();
  auto rules = o.rules_file.empty() ? funnel::ScreeningRules::builtin()
                                    : funnel::ScreeningRules::load_file(o.rules_file);
  auto scope = o.rules_only ? funnel::ScopeDecisions::kIgnore : funnel::ScopeDecisions::kFollow;
  funnel::RepositoryFunnel total;
  nlohmann::json j = {{"repositories", nlohmann::json::object()}};
  std::vector<std::vector<std::string>> rows{
      {"repository", "raw", "candidates", "screened by a scope decision", "overriding the rules"}};
  auto add = [&](const std::string& repo, const funnel::RepositoryFunnel& f) {
    rows.push_back({repo, std::to_string(f.raw), std::to_string(f.candidates),
                    std::to_string(f.scope_decisions), std::to_string(f.overriding_rules)});
  };
  for (const auto& [repo, f] : funnel::screen_store(*db, rules, scope)) {
    j["repositories"][repo] = {{"raw", f.raw},
                               {"candidates", f.candidates},
                               {"scope_decisions", f.scope_decisions},
                               {"overriding_rules", f.overriding_rules}};
    add(repo, f);
    total.raw += f.raw;
    total.candidates += f.candidates;
    total.scope_decisions += f.scope_decisions;
    total.overriding_rules += f.overriding_rules;
  }
  add("Total", total);
  j["raw"] = total.raw;
  j["candidates"] = total.candidates;
  j["scope_decisions"] = total.scope_decisions;
  j["overriding_rules"] = total.overriding_rules;
  ctx.emit(j, text_table(rows) +
                  "every decision and its rule are recorded in the store (table screening); a scope decision "
                  "recorded in the data (a person's) stands over the rules" +
                  (o.rules_only ? ", but not in this screen (--rules-only): the rules decided every issue\n"
                                : " unless --rules-only\n"));
}

void sample(const Context& ctx, SampleOptions o) {
  if (o.name.empty()) o.name = "main";
  auto db = ctx.open_db();
  auto draw = o.census ? funnel::census_sample(*db, o.name, o.force)
                       : funnel::draw_sample(*db, o.name, o.total, o.seed, o.force);
  nlohmann::json j = {
      {"name", o.name}, {"method", o.census ? "census" : "draw"}, {"repositories", nlohmann::json::object()}};
  if (!o.census) {
    j["total"] = o.total;
    j["seed"] = o.seed;
  }
  std::vector<std::vector<std::string>> rows{{"repository", "candidates", "sampled"}};
  int sampled = 0;
  for (const auto& [repo, d] : draw.strata) {
    j["repositories"][repo] = {{"candidates", d.candidates}, {"sampled", d.allocated}};
    rows.push_back({repo, std::to_string(d.candidates), std::to_string(d.allocated)});
    sampled += d.allocated;
  }
  j["sampled"] = sampled;
  j["labeled_dropped"] = draw.labeled_dropped;
  j["exclusions_discarded"] = draw.exclusions_discarded;
  std::string replaced;
  if (draw.labeled_dropped > 0 || draw.exclusions_discarded > 0)
    replaced = "replaced the earlier sample '" + o.name +
               "' (--force): " + common::counted(draw.labeled_dropped, "labeled issue") + " dropped, " +
               common::counted(draw.exclusions_discarded, "exclusion") +
               " discarded (with the reasons recorded)\n";
  ctx.emit(j, "sample '" + o.name + "' (" +
                  (o.census ? std::string("census") : "seed " + std::to_string(o.seed)) + "):\n" +
                  text_table(rows) + replaced);
}

void replace(const Context& ctx, const std::string& sample_name, const ReplaceOptions& o) {
  auto db = ctx.open_db();
  auto [repo, number] = common::parse_issue_key(o.issue_key);
  auto r = funnel::replace_in_sample(*db, datasets::resolve_sample(*db, sample_name), repo, number, o.reason);
  ctx.emit(
      {{"excluded", o.issue_key},
       {"replacement", r.replacement_key},
       {"distance_seconds", r.distance_seconds ? nlohmann::json(*r.distance_seconds) : nullptr}},
      "excluded " + o.issue_key + " (" + common::one_line(o.reason) + "); replaced by " + r.replacement_key +
          (r.distance_seconds ? ", created " + std::to_string(*r.distance_seconds / 86400) + " days apart"
                              : " (a creation time is unknown: nearest in time cannot be told)") +
          "\n");
}

void funnel(const Context& ctx, const FunnelOptions& o) {
  auto db = ctx.open_db();
  funnel::StudyFunnel f;
  db->read_consistently([&] { f = funnel::compute_funnel(*db, datasets::resolve_sample(*db, o.name)); });
  std::vector<std::vector<std::string>> table{
      {"repository", "raw", "candidate", "sampled", "excluded", "final"}};
  auto add = [&](const funnel::FunnelRow& r) {
    table.push_back({r.repo, std::to_string(r.raw), std::to_string(r.candidates), std::to_string(r.sampled),
                     std::to_string(r.excluded), std::to_string(r.labeled)});
  };
  for (const auto& r : f.rows) add(r);
  add(funnel::funnel_total(f.rows));
  ctx.emit(funnel::funnel_json(f), text_table(table) +
                                       "final = sampled issues with an audited manual label. " +
                                       funnel::funnel_note(f) + "\n");
}

}  // namespace

void add_funnel_commands(CLI::App& app, Context& ctx) {
  auto screen_options = std::make_shared<ScreenOptions>();
  auto* scr = app.add_subcommand("screen",
                                 "Screen every stored issue into the candidate pool (closed, failure term "
                                 "in the title, no out-of-scope label); records each decision's rule.\n"
                                 "Example: faultline screen --json");
  scr->add_option("--rules", screen_options->rules_file,
                  "screening rules JSON (default: the built-in taxonomy/screening.json)");
  scr->add_flag("--rules-only", screen_options->rules_only,
                "apply the rules to every issue, even where a person's scope decision is recorded");
  scr->callback([&ctx, screen_options] { screen(ctx, *screen_options); });

  auto sample_options = std::make_shared<SampleOptions>();
  auto* smp = app.add_subcommand("sample",
                                 "Draw a repository-stratified proportional sample of the candidates, or "
                                 "record a census of them (--census).\n"
                                 "Example: faultline sample --total 150 --seed 7");
  smp->add_option("--total", sample_options->total, "sample size")
      ->check(whole_number_in(1, std::numeric_limits<int>::max()));
  smp->add_option("--seed", sample_options->seed, "random seed (same seed, same sample)")
      ->check(unsigned_64());
  smp->add_option("--name", sample_options->name,
                  "sample name (default 'main'; for replace: 'main', or the store's only sample)")
      ->check(not_empty());
  smp->add_flag(
         "--census", sample_options->census,
         "take every candidate, nothing drawn (as the bundled snapshot's raters labeled every issue in "
         "scope)")
      ->excludes(smp->get_option("--total"))
      ->excludes(smp->get_option("--seed"));
  smp->add_flag("--force", sample_options->force,
                "replace the sample even when labeled issues would leave it or its exclusions (and their "
                "reasons) would be discarded");
  auto replace_options = std::make_shared<ReplaceOptions>();
  auto* rep = smp->add_subcommand(
      "replace",
      "Exclude a sampled issue and replace it with the nearest-in-time "
      "unsampled candidate of its repository.\n"
      "Example: faultline sample replace NVIDIA/cutlass#132 --reason \"no fix evidence\"");
  rep->add_option("issue", replace_options->issue_key, "OWNER/NAME#NUMBER")->required()->check(issue_key());
  rep->add_option("--reason", replace_options->reason, "why it is excluded")->required();
  smp->callback([&ctx, smp, sample_options] {
    if (smp->get_subcommands().empty()) sample(ctx, *sample_options);
  });
  rep->callback(
      [&ctx, sample_options, replace_options] { replace(ctx, sample_options->name, *replace_options); });

  auto funnel_options = std::make_shared<FunnelOptions>();
  auto* fun = app.add_subcommand(
      "funnel",
      "Raw / candidate / sampled / excluded / final counts per repository (Table I), and the final labels "
      "left out, by why.\n"
      "Example: faultline funnel --json");
  fun->add_option("--name", funnel_options->name, "sample name (default: 'main', or the store's only sample)")
      ->check(not_empty());
  fun->callback([&ctx, funnel_options] { funnel(ctx, *funnel_options); });
}

}  // namespace faultline::cli
