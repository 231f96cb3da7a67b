// The version of faultline, from the project() line of the top-level CMakeLists.txt.
#pragma once

namespace faultline::common {

const char* version();

}  // namespace faultline::common
