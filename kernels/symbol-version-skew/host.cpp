// Host harness: plays the deployment machine. It loads this variant's extension with the system loader,
// which finds the older runtime through the extension's RUNPATH, as an import of the Python extension
// would, and calls it. The symptom is the loader's own refusal, matched by its text ("version `RT_2.0' not
// found"); any other load failure (a missing libext.so, say) is a harness error, never the symptom. Put the
// newer runtime where the older one was (the oracle test does) and the buggy extension loads.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <string>

#include "portability.hpp"
#include "verdict.hpp"

namespace {

constexpr int kHarnessError = 3;

std::string own_directory() {
  char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  std::string self(path, static_cast<size_t>(n));
  return self.substr(0, self.rfind('/'));
}

}  // namespace

int main() {
  const std::string extension =
      own_directory() + (FAULTLINE_FIXED ? "/ext_fixed" : "/ext_buggy") + "/libext.so";
  void* handle = dlopen(extension.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const std::string error = dlerror();
    if (error.find("version `RT_2.0' not found") != std::string::npos) {
      return faultline::repro::verdict(true, "ImportError: " + error);
    }
    std::fprintf(stderr, "the extension did not load, but not for the symbol version: %s\n", error.c_str());
    return kHarnessError;
  }
  auto scaled_sum = reinterpret_cast<int (*)(int, int)>(dlsym(handle, "ext_scaled_sum"));
  if (!scaled_sum) {
    std::fprintf(stderr, "no entry point ext_scaled_sum: %s\n", dlerror());
    return kHarnessError;
  }
  const int value = scaled_sum(2, 3);  // runtime_scale(2 + 3) doubles: 10
  dlclose(handle);
  if (value != 10) {
    std::fprintf(stderr, "the extension loaded but ext_scaled_sum(2, 3) = %d, not 10\n", value);
    return kHarnessError;
  }
  return faultline::repro::verdict(false, "extension loaded; ext_scaled_sum(2, 3) = 10");
}
