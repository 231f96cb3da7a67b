// Host harness (modeled: no assembler runs here, so "ptxas refuses" is the version comparison itself). The
// version choice of the setup, a generator that knows PTX 8.6 and a CUDA 12.6 assembler that
// accepts up to 8.5 (`--generator X.Y --assembler X.Y` for others): with a generator no newer than the
// assembler the buggy choice is accepted. The build mode runs the choice against the installed ptxas,
// which is the observation.
#include <cstdio>
#include <string>

#include "harness_options.hpp"
#include "ptx_version.hpp"
#include "verdict.hpp"

namespace {

PtxVersion parse_version(const std::string& text) {
  const size_t dot = text.find('.');
  if (dot == std::string::npos) return {};
  return {std::stoi(text.substr(0, dot)), std::stoi(text.substr(dot + 1))};
}

std::string text_of(PtxVersion v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }

}  // namespace

int main(int argc, char** argv) {
  const PtxVersion generator = parse_version(faultline::repro::string_option(argc, argv, "generator", "8.6"));
  const PtxVersion assembler = parse_version(faultline::repro::string_option(argc, argv, "assembler", "8.5"));
  if (generator.major == 0 || assembler.major == 0) {
    std::fprintf(stderr, "versions are MAJOR.MINOR\n");
    return 2;
  }
  const PtxVersion emitted = emitted_version(generator, assembler);
  const bool refused = newer_than(emitted, assembler);
  return faultline::repro::verdict(refused, "emits .version " + text_of(emitted) +
                                                " for an assembler that accepts up to " + text_of(assembler) +
                                                (refused ? ": ptxas fatal, Unsupported .version" : ""));
}
