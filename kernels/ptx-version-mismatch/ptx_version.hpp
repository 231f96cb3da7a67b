// Mechanism: a JIT compiler's code generator (Triton's bundled LLVM, say) writes the newest PTX ISA version
// it knows into the `.version` directive, while the PTX is assembled by the ptxas of the CUDA Toolkit
// installed on the machine. When that toolkit is older than the generator, ptxas stops with "Unsupported
// .version". Source: https://github.com/triton-lang/triton/issues/5929 Fix: cap the emitted version at the
// newest one the installed assembler accepts.
#pragma once

#include "portability.hpp"

struct PtxVersion {
  int major = 0;
  int minor = 0;
};

FL_HD inline bool newer_than(PtxVersion a, PtxVersion b) {
  return a.major != b.major ? a.major > b.major : a.minor > b.minor;
}

// The version the generator writes, given the newest it knows and the newest the assembler accepts.
FL_HD inline PtxVersion emitted_version(PtxVersion generator_newest, PtxVersion assembler_newest) {
#if FAULTLINE_FIXED
  return newer_than(generator_newest, assembler_newest) ? assembler_newest : generator_newest;
#else
  (void)assembler_newest;
  return generator_newest;
#endif
}
