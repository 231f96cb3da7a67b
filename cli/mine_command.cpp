#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "common/counted.hpp"
#include "miner/miner.hpp"

namespace faultline::cli {

namespace {

struct MineCommandOptions {
  miner::MineOptions mine;
  bool study = false;
  std::string api_url;
};

}  // namespace

void add_mine_command(CLI::App& app, Context& ctx) {
  auto options = std::make_shared<MineCommandOptions>();
  miner::MineOptions& o = options->mine;
  auto* mine =
      app.add_subcommand("mine",
                         "Mine issues and comments of GitHub repositories into the store; run again "
                         "to refresh cheaply (only what\n"
                         "changed, conditional requests). Tokens from GITHUB_TOKENS (comma-separated "
                         "pool), the file GITHUB_TOKENS_FILE\n"
                         "names, or GITHUB_TOKEN (never printed or stored); base URL from --api-url "
                         "or GITHUB_API_URL.\n"
                         "A killed run resumes where it stopped.\n"
                         "Example: GITHUB_TOKEN=... faultline mine --study --verify --json");
  mine->add_flag("--study", options->study, "the study's seven repositories");
  mine->add_option("--repo", o.repositories, "OWNER/NAME (repeatable)")->check(repository_name());
  mine->add_option("--api-url", options->api_url,
                   "API base URL (default $GITHUB_API_URL or https://api.github.com)");
  mine->add_option("--since", o.since,
                   "first mine only: issues updated at or after this UTC time, YYYY-MM-DDTHH:MM:SSZ")
      ->check(utc_moment());
  mine->add_option("--overlap", o.overlap_seconds,
                   "a refresh reads again what changed in the SECONDS before the last one's newest entry, "
                   "so an entry\nGitHub shows late is not missed (what comes back unchanged is skipped)")
      ->default_val(600)
      ->check(whole_number_in(0, int64_t{30} * 86400));
  mine->add_option("--max-requests", o.api.max_requests, "stop cleanly after N requests; rerun to continue")
      ->check(whole_number_in(0, std::numeric_limits<int64_t>::max()))
      ->default_str("no limit");
  mine->add_option("--max-wait", o.api.max_wait_s,
                   "stop cleanly (resumable) instead of a wait longer than SECONDS (a rate-limit reset, a "
                   "Retry-After, a retry's backoff)")
      ->default_val(3600)
      ->type_name("INT")  // whole seconds (the option holds a double)
      ->check(whole_number_in(0, 30 * 86400));
  mine->add_option("--backoff-ms", o.api.backoff_ms, "base of the exponential backoff for retries")
      ->check(whole_number_in(0, 600'000));
  mine->add_flag("--verify", o.verify,
                 "account for every issue number: fetch the ones the listings missed, report what is gone");
  mine->add_flag("--timeline", o.timeline,
                 "also fetch the timelines (fix evidence) of the issues in --sample");
  mine->add_option("--sample", o.sample, "sample whose issues get timelines")->check(not_empty());
  mine->callback([&ctx, options] {
    miner::MineOptions& o = options->mine;
    const std::string& api_url = options->api_url;
    if (options->study) {
      for (const auto& r : miner::study_repositories()) o.repositories.push_back(r);
    }
    if (o.repositories.empty())
      throw CLI::ValidationError("mine", "name repositories with --repo OWNER/NAME or use --study");
    const char* env_url = std::getenv("GITHUB_API_URL");
    o.api.base_url = !api_url.empty() ? api_url : env_url && *env_url ? env_url : "https://api.github.com";
    o.api.tokens = miner::configured_tokens(std::getenv("GITHUB_TOKENS"), std::getenv("GITHUB_TOKENS_FILE"),
                                            std::getenv("GITHUB_TOKEN"));
    if (o.api.tokens.empty())
      std::cerr << "warning: GITHUB_TOKEN is not set: GitHub allows 60 requests per hour without a token\n";
    const bool tty = isatty(STDERR_FILENO);
    auto progress = ctx.progress();
    // Pages as a redrawn line (or every few seconds in a log); every rate-limit wait is said, whether or
    // not stderr is a terminal: a silent hour looks like a hang. On a terminal the wait counts down.
    o.api.wait_report_interval_s = tty ? 1 : 60;
    o.api.on_wait = [&progress, tty](const std::string& text) {
      tty ? progress->update(text) : progress->note(text);
    };
    // Warnings are not progress: --quiet keeps them.
    o.api.on_warning = [tty](const std::string& text) {
      std::cerr << (tty ? "\r\033[K" : "") << "warning: " << text << "\n";
    };
    std::string last_status;
    auto status = [&progress, &last_status](const std::string& text) {
      progress->update(text);
      last_status = text;
    };
    auto db = ctx.open_or_create_db();
    auto summary = miner::mine(*db, o, status);
    progress->finish(last_status.empty() ? "mine: no page fetched" : last_status);
    auto j = miner::mine_summary_json(summary);
    std::string text =
        std::string(summary.stopped_early ? "stopped while mining " : "mined ") +
        common::counted(static_cast<long long>(o.repositories.size() - summary.failed.size()), "repository",
                        "repositories") +
        (summary.failed.empty() ? "" : " (" + std::to_string(summary.failed.size()) + " failed, below)") +
        ": " + common::counted(summary.issues, "issue") + ", " +
        common::counted(summary.comments, "comment") + ", " +
        common::counted(summary.pull_requests_skipped, "pull request") + " skipped; " +
        std::to_string(summary.stats.requests) + " requests (" + std::to_string(summary.stats.not_modified) +
        " not modified), " + std::to_string(summary.stats.retries) + " retries, " +
        std::to_string(summary.stats.rate_limit_waits) + " rate-limit waits\n";
    for (const auto& [from, to] : summary.renamed) text += "renamed: " + from + " is now " + to + "\n";
    for (const auto& [issue, why] : summary.timelines_unavailable)
      text += "timeline unavailable: " + issue + " (" + why + ")\n";
    for (const auto& v : summary.verified) {
      text += "verified " + v.repo + ": numbers 1-" + std::to_string(v.highest_number) + " = " +
              std::to_string(v.issues) + " issues + " + std::to_string(v.pull_requests) +
              " pull requests + " + std::to_string(v.missing.size()) + " missing; " +
              std::to_string(v.fetched) + " fetched one by one, " + std::to_string(v.recovered) +
              " recovered\n";
      for (const auto& [number, why] : v.missing) text += "  #" + std::to_string(number) + ": " + why + "\n";
    }
    text += datasets::outdated_lines(summary.outdated);
    if (summary.stopped_early) text += summary.stop_reason + "\n";
    ctx.emit(j, text);
    for (const auto& [repo, error] : summary.failed)
      std::cerr << "faultline: mine " << repo << ": " << error << "\n";
    if (!summary.failed.empty()) throw CLI::RuntimeError(1);
  });
}

}  // namespace faultline::cli
