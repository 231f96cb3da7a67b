// Host harness: the version choice of the setup, a generator that knows PTX 8.6 and a CUDA 12.6
// assembler that accepts up to 8.5. The build mode runs the same choice against the real ptxas.
#include <string>

#include "ptx_version.hpp"
#include "verdict.hpp"

int main() {
  const PtxVersion generator{8, 6}, assembler{8, 5};
  PtxVersion emitted = emitted_version(generator, assembler);
  std::string text = std::to_string(emitted.major) + "." + std::to_string(emitted.minor);
  return faultline::repro::verdict(
      newer_than(emitted, assembler),
      "emits .version " + text + " for an assembler that accepts up to 8.5" +
          (newer_than(emitted, assembler) ? ": ptxas fatal, Unsupported .version" : ""));
}
