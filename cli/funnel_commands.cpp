#include <nlohmann/json.hpp>

#include "classifier/funnel/funnel.hpp"
#include "classifier/funnel/sampler.hpp"
#include "classifier/funnel/screening.hpp"
#include "cli/commands.hpp"
#include "cli/text_table.hpp"
#include "common/repository_name.hpp"

namespace faultline::cli {

namespace {

struct FunnelOptions {
  std::string rules_file;
  int total = 300;
  uint64_t seed = 1;
  std::string name = "main";
  std::string replace_key;
  std::string reason;
};

void screen(const Context& ctx, const FunnelOptions& o) {
  auto db = ctx.open_db();
  auto rules = o.rules_file.empty() ? funnel::ScreeningRules::builtin()
                                    : funnel::ScreeningRules::load_file(o.rules_file);
  auto funnel = funnel::screen_store(*db, rules);
  nlohmann::json j = {{"repositories", nlohmann::json::object()}};
  std::vector<std::vector<std::string>> rows{{"repository", "raw", "candidates"}};
  int raw = 0, candidates = 0;
  for (const auto& [repo, f] : funnel) {
    j["repositories"][repo] = {{"raw", f.raw}, {"candidates", f.candidates}};
    rows.push_back({repo, std::to_string(f.raw), std::to_string(f.candidates)});
    raw += f.raw;
    candidates += f.candidates;
  }
  rows.push_back({"Total", std::to_string(raw), std::to_string(candidates)});
  j["raw"] = raw;
  j["candidates"] = candidates;
  ctx.emit(j, text_table(rows) + "every decision and its rule are recorded in the store (table screening)\n");
}

void sample(const Context& ctx, const FunnelOptions& o) {
  auto db = ctx.open_db();
  auto draw = funnel::draw_sample(*db, o.name, o.total, o.seed);
  nlohmann::json j = {
      {"name", o.name}, {"total", o.total}, {"seed", o.seed}, {"repositories", nlohmann::json::object()}};
  std::vector<std::vector<std::string>> rows{{"repository", "candidates", "sampled"}};
  for (const auto& [repo, d] : draw) {
    j["repositories"][repo] = {{"candidates", d.candidates}, {"sampled", d.allocated}};
    rows.push_back({repo, std::to_string(d.candidates), std::to_string(d.allocated)});
  }
  ctx.emit(j, "sample '" + o.name + "' (seed " + std::to_string(o.seed) + "):\n" + text_table(rows));
}

void replace(const Context& ctx, const FunnelOptions& o) {
  auto db = ctx.open_db();
  auto [repo, number] = common::parse_issue_key(o.replace_key);
  auto r = funnel::replace_in_sample(*db, o.name, repo, number, o.reason);
  ctx.emit({{"excluded", o.replace_key},
            {"replacement", r.replacement_key},
            {"distance_seconds", r.distance_seconds}},
           "excluded " + o.replace_key + " (" + o.reason + "); replaced by " + r.replacement_key +
               ", created " + std::to_string(r.distance_seconds / 86400) + " days apart\n");
}

void funnel(const Context& ctx, const FunnelOptions& o) {
  auto db = ctx.open_db();
  auto rows = funnel::compute_funnel(*db, o.name);
  std::vector<std::vector<std::string>> table{
      {"repository", "raw", "candidate", "sampled", "excluded", "final"}};
  auto add = [&](const funnel::FunnelRow& r) {
    table.push_back({r.repo, std::to_string(r.raw), std::to_string(r.candidates), std::to_string(r.sampled),
                     std::to_string(r.excluded), std::to_string(r.labeled)});
  };
  for (const auto& r : rows) add(r);
  add(funnel::funnel_total(rows));
  ctx.emit(funnel::funnel_json(rows),
           text_table(table) + "final = issues with an audited manual label\n");
}

}  // namespace

void add_funnel_commands(CLI::App& app, Context& ctx) {
  static FunnelOptions o;
  auto* scr = app.add_subcommand("screen",
                                 "Screen every stored issue into the candidate pool (closed, failure term "
                                 "in the title, no out-of-scope label); records each decision's rule.\n"
                                 "Example: faultline screen --json");
  scr->add_option("--rules", o.rules_file,
                  "screening rules JSON (default: the built-in taxonomy/screening.json)");
  scr->callback([&ctx] { screen(ctx, o); });

  auto* smp = app.add_subcommand("sample",
                                 "Draw a repository-stratified proportional sample of the candidates.\n"
                                 "Example: faultline sample --total 300 --seed 7");
  smp->add_option("--total", o.total, "sample size");
  smp->add_option("--seed", o.seed, "random seed (same seed, same sample)");
  smp->add_option("--name", o.name, "sample name");
  auto* rep = smp->add_subcommand(
      "replace",
      "Exclude a sampled issue and replace it with the nearest-in-time "
      "unsampled candidate of its repository.\n"
      "Example: faultline sample replace NVIDIA/cutlass#1270 --reason \"no fix evidence\"");
  rep->add_option("issue", o.replace_key, "OWNER/NAME#NUMBER")->required();
  rep->add_option("--reason", o.reason, "why it is excluded")->required();
  smp->callback([&ctx, smp] {
    if (smp->get_subcommands().empty()) sample(ctx, o);
  });
  rep->callback([&ctx] { replace(ctx, o); });

  auto* fun = app.add_subcommand("funnel",
                                 "Raw / candidate / sampled / final counts per repository (Table I).\n"
                                 "Example: faultline funnel --json");
  fun->add_option("--name", o.name, "sample name");
  fun->callback([&ctx] { funnel(ctx, o); });
}

}  // namespace faultline::cli
