#include "cli/commands.hpp"
#include "cli/pending.hpp"

namespace faultline::cli {

void add_repro_commands(CLI::App& app, Context&) {
  add_pending(app, "repro", "List and run reproducers.", 8);
  add_pending(app, "suite", "Run the reproducer regression suite.", 8);
  add_pending(app, "link", "Link an issue to a reproducer.", 8);
  add_pending(app, "doctor", "What can run on this machine.", 8);
}
void add_mine_command(CLI::App& app, Context&) { add_pending(app, "mine", "Mine issues from GitHub.", 3); }

}  // namespace faultline::cli
