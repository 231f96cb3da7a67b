#include "common/version.hpp"

namespace faultline::common {

const char* version() { return FAULTLINE_VERSION; }

}  // namespace faultline::common
