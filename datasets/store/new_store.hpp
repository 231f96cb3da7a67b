// A verb that brings data in and succeeds or changes nothing (import): on a store that does not exist yet,
// it must not leave an empty one behind when it fails, as every later verb would take that for a study with
// no issues.
#pragma once

#include <functional>
#include <string>

#include "datasets/store/database.hpp"

namespace faultline::datasets {

// Runs `work` on the store at `path`. When there is none, `work` fills a new one made under a hidden name
// beside it, which is linked in at `path` only when `work` succeeds (and removed when it throws): another
// process never sees a half-made store, and a store another process made at `path` meanwhile is never
// replaced nor deleted (that is an error, and `work` can be run again on theirs). A symbolic link at `path`
// to a store is opened as SQLite follows it; one to no file is an error (Database), and nothing is made.
void work_on_store_or_make_one(const std::string& path, const OpenOptions& options,
                               const std::function<void(Database&)>& work);

}  // namespace faultline::datasets
