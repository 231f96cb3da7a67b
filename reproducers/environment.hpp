// What this machine offers the reproducers: the build, nvcc, a GPU and its compute capability.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace faultline::reproducers {

struct Gpu {
  std::string name;
  std::string driver;
  double compute_capability = 0;
};

struct Environment {
  std::string node;                 // this host's name, as results record where they ran
  std::string build_dir;            // where CMake built the kernels
  std::string manifest_dir;         // reproducers/*.json
  bool have_cuda = false;           // nvcc was found when the build was configured
  std::string nvcc;                 // its path, when found
  std::string cuda_toolkit;         // nvcc's release ("13.0"); empty without nvcc
  std::optional<Gpu> gpu;           // the first GPU nvidia-smi lists
  std::string cuda_driver_version;  // "CUDA Version" as nvidia-smi reports it
};

// share/faultline/reproducers beside an installed executable, else the source tree's reproducers/ as
// configured at build time.
std::string default_manifest_dir();

// The build's own settings, nvcc's release, then the one probe of the GPU that everything (the runner,
// `faultline doctor` and the tests that ask doctor) relies on: nvidia-smi (absent GPU → no gpu).
Environment detect_environment();

// Whether the harnesses' build directory is there (and may be looked into).
bool build_dir_found(const Environment& env);
// Throws faultline::Error naming the directory when it is not.
void require_build_dir(const Environment& env);

// The GPU's compute capability as results record it ("9.0"), or "none" without a GPU.
std::string compute_capability_text(const Environment& env);

// One line per fact, for 'faultline doctor'.
std::vector<std::pair<std::string, std::string>> describe(const Environment& env);

}  // namespace faultline::reproducers
