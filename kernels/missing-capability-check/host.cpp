// Host harness: the dispatch decision for an H200 (compute capability 9.0), with the runtime's image
// check modelled by image_available().
#include <string>

#include "capability.hpp"
#include "portability.hpp"
#include "verdict.hpp"

int main() {
  const int h200_major = 9;
  Path path = choose_path(h200_major);
  bool fails = !image_available(path, h200_major);
  return faultline::repro::verdict(
      fails, std::string(path == Path::kFast ? "fast" : "portable") + " path on compute capability 9.0: " +
                 (fails ? "no kernel image is available for execution on the device" : "launch succeeds"));
}
