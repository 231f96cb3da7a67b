// Host harness: plays the deployment machine. It loads this variant's extension, which finds the older
// runtime through its RUNPATH, as an import of the Python extension would, and calls it.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <string>

#include "portability.hpp"
#include "verdict.hpp"

namespace {

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
  if (!handle) return faultline::repro::verdict(true, std::string("ImportError: ") + dlerror());
  auto scaled_sum = reinterpret_cast<int (*)(int, int)>(dlsym(handle, "ext_scaled_sum"));
  if (!scaled_sum) return faultline::repro::verdict(true, std::string("no entry point: ") + dlerror());
  int value = scaled_sum(2, 3);
  dlclose(handle);
  return faultline::repro::verdict(value != 10,
                                   "extension loaded; ext_scaled_sum(2, 3) = " + std::to_string(value));
}
