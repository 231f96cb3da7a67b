// Host harness (modeled: no launch on a CPU). The dispatch decision for a device of compute capability 9.0,
// the H200 (`--device-arch NN` for another, ten times the capability), then the runtime's image lookup
// (kernel_images.hpp) over the images the build gives the chosen kernel: the fast path's
// FAULTLINE_FAST_PATH_ARCHS and the portable kernel's FAULTLINE_PORTABLE_ARCHS, both from CMake. On a 10.0
// device the fast path has an image and the buggy dispatch succeeds; the GPU harness makes the real launch.
#include <string>

#include "capability.hpp"
#include "harness_options.hpp"
#include "kernel_images.hpp"
#include "portability.hpp"
#include "verdict.hpp"

int main(int argc, char** argv) {
  const int device_arch = faultline::repro::int_option(argc, argv, "device-arch", 90);
  const Path path = choose_path(device_arch / 10);
  const std::string archs = path == Path::kFast ? FAULTLINE_FAST_PATH_ARCHS : FAULTLINE_PORTABLE_ARCHS;
  const bool fails = !device_can_load(images_of(archs), device_arch);
  return faultline::repro::verdict(
      fails, std::string(path == Path::kFast ? "fast" : "portable") + " path (built for " + archs +
                 ") on compute capability " + std::to_string(device_arch / 10) + "." +
                 std::to_string(device_arch % 10) + ": " +
                 (fails ? "no kernel image is available for execution on the device" : "an image loads"));
}
