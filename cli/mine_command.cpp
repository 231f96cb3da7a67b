#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "miner/miner.hpp"

namespace faultline::cli {

void add_mine_command(CLI::App& app, Context& ctx) {
  static miner::MineOptions o;
  static bool study = false;
  static std::string api_url;
  auto* mine = app.add_subcommand("mine",
                                  "Mine issues and comments of GitHub repositories into the store; run again "
                                  "to refresh cheaply (only what\n"
                                  "changed, conditional requests). Token from GITHUB_TOKEN (never printed or "
                                  "stored); base URL from --api-url\n"
                                  "or GITHUB_API_URL. A killed run resumes where it stopped.\n"
                                  "Example: GITHUB_TOKEN=... faultline mine --study --json");
  mine->add_flag("--study", study, "the study's seven repositories");
  mine->add_option("--repo", o.repositories, "OWNER/NAME (repeatable)");
  mine->add_option("--api-url", api_url, "API base URL (default $GITHUB_API_URL or https://api.github.com)");
  mine->add_option("--since", o.since, "first mine only: issues updated at or after this ISO 8601 time");
  mine->add_option("--max-requests", o.api.max_requests, "stop cleanly after N requests; rerun to continue");
  mine->add_option("--backoff-ms", o.api.backoff_ms, "base of the exponential backoff for retries");
  mine->add_flag("--timeline", o.timeline,
                 "also fetch the timelines (fix evidence) of the issues in --sample");
  mine->add_option("--sample", o.sample, "sample whose issues get timelines");
  mine->callback([&ctx] {
    if (study) {
      for (const auto& r : miner::study_repositories()) o.repositories.push_back(r);
    }
    const char* env_url = std::getenv("GITHUB_API_URL");
    o.api.base_url = !api_url.empty() ? api_url : env_url && *env_url ? env_url : "https://api.github.com";
    const char* token = std::getenv("GITHUB_TOKEN");
    o.api.token = token ? token : "";
    bool tty = isatty(STDERR_FILENO);
    auto line = [tty](const std::string& text) {
      if (tty) std::cerr << "\r" << text << "\033[K" << std::flush;
    };
    o.api.on_wait = line;
    auto db = ctx.open_or_create_db();
    auto summary = miner::mine(*db, o, line);
    if (tty) std::cerr << "\r\033[K";
    auto j = miner::mine_summary_json(summary);
    std::string text =
        "mined " + std::to_string(o.repositories.size()) +
        " repositories: " + std::to_string(summary.issues) + " issues, " + std::to_string(summary.comments) +
        " comments, " + std::to_string(summary.pull_requests_skipped) + " pull requests skipped; " +
        std::to_string(summary.stats.requests) + " requests (" + std::to_string(summary.stats.not_modified) +
        " not modified), " + std::to_string(summary.stats.retries) + " retries, " +
        std::to_string(summary.stats.rate_limit_waits) + " rate-limit waits\n";
    for (const auto& [from, to] : summary.renamed) text += "renamed: " + from + " is now " + to + "\n";
    if (summary.stopped_early) text += "stopped at --max-requests; run the same command again to continue\n";
    ctx.emit(j, text);
  });
}

}  // namespace faultline::cli
