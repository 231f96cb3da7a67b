// Independent tasks spread over a few threads: model fits and cross-validation folds. Each task writes
// only its own result slot, so the outcome does not depend on the number of threads.
#pragma once

#include <cstddef>
#include <functional>

namespace faultline::common {

// Runs task(0) … task(count − 1) on up to `jobs` threads (the calling thread is one of them) and returns
// when all are done. When tasks throw, the exception of the lowest-numbered one is rethrown.
void run_in_parallel(size_t count, int jobs, const std::function<void(size_t)>& task);

// The number of threads to use when the caller did not say: the machine's cores (at least 1).
int default_jobs();

}  // namespace faultline::common
