// The code generator of the build mode: reads the installed toolkit's PTX version from the probe, plays a
// generator one minor version ahead of it (as a newer bundled LLVM is), and writes a kernel's PTX with the
// version emitted_version() chooses. ptxas then assembles it, or refuses it.
// usage: ptx_writer PROBE.ptx OUT.ptx
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "ptx_version.hpp"

namespace {

const char* const kKernelBody = R"(.target sm_90
.address_size 64

.visible .entry scale_by_two(.param .u64 scale_by_two_param_0)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<5>;

  ld.param.u64 %rd1, [scale_by_two_param_0];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, %f1;
  st.global.f32 [%rd4], %f2;
  ret;
}
)";

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: ptx_writer PROBE.ptx OUT.ptx\n";
    return 2;
  }
  std::ifstream probe(argv[1]);
  std::stringstream text;
  text << probe.rdbuf();
  std::smatch match;
  const std::string probe_text = text.str();
  if (!std::regex_search(probe_text, match, std::regex(R"(\.version\s+(\d+)\.(\d+))"))) {
    std::cerr << argv[1] << ": no .version directive\n";
    return 1;
  }
  const PtxVersion assembler{std::stoi(match[1].str()), std::stoi(match[2].str())};
  const PtxVersion generator{assembler.major, assembler.minor + 1};
  const PtxVersion emitted = emitted_version(generator, assembler);
  std::ofstream out(argv[2]);
  out << "// written by faultline's ptx-version-mismatch reproducer\n.version " << emitted.major << "."
      << emitted.minor << "\n"
      << kKernelBody;
  return out ? 0 : 1;
}
