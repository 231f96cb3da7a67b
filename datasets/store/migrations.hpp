// The schema's history: migration N takes the database from user_version N-1 to N.
#pragma once

#include <string>
#include <vector>

namespace faultline::datasets {

const std::vector<std::string>& migrations();
inline int latest_schema_version() { return static_cast<int>(migrations().size()); }

}  // namespace faultline::datasets
