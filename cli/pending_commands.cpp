#include "cli/commands.hpp"
#include "cli/pending.hpp"

namespace faultline::cli {

void add_mine_command(CLI::App& app, Context&) { add_pending(app, "mine", "Mine issues from GitHub.", 3); }

}  // namespace faultline::cli
