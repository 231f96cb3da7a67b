// Host harness: plays the deployment process. It loads this variant's prebuilt extension with the system
// loader, which resolves the extension's framework calls against the deployed framework (new string ABI)
// through the extension's RUNPATH, and calls it. The symptom is the loader's refusal naming the framework
// function ("undefined symbol: ...describe_kernel..."); any other load failure (a missing libext.so, say) is
// a harness error, never the symptom. Deploy the old-ABI framework instead (the oracle test does) and the
// buggy extension loads.
#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
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

// The symbol the loader could not find, demangled, or "" when the error is not an undefined symbol.
std::string undefined_symbol(const std::string& error) {
  const std::string marker = "undefined symbol: ";
  const size_t at = error.find(marker);
  if (at == std::string::npos) return "";
  const std::string mangled = error.substr(
      at + marker.size(), error.find_first_of(" ,\n", at + marker.size()) - (at + marker.size()));
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> plain(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 ? std::string(plain.get()) : mangled;
}

}  // namespace

int main() {
  const std::string extension =
      own_directory() + (FAULTLINE_FIXED ? "/ext_fixed" : "/ext_buggy") + "/libext.so";
  void* handle = dlopen(extension.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const std::string error = dlerror();
    const std::string symbol = undefined_symbol(error);
    if (symbol.find("describe_kernel") != std::string::npos) {
      return faultline::repro::verdict(true, "ImportError: " + error + " (" + symbol + ")");
    }
    std::fprintf(stderr, "the extension did not load, but not for a framework symbol: %s\n", error.c_str());
    return kHarnessError;
  }
  auto describe = reinterpret_cast<int (*)(const char*, char*, int)>(dlsym(handle, "ext_describe"));
  if (!describe) {
    std::fprintf(stderr, "no entry point ext_describe: %s\n", dlerror());
    return kHarnessError;
  }
  char text[128];
  describe("gemm", text, sizeof text);
  dlclose(handle);
  const std::string expected = "gemm: sm90 tile 128x128";  // kernel_registry.cpp's answer for "gemm"
  if (expected != text) {
    std::fprintf(stderr, "the extension loaded but answered '%s'\n", text);
    return kHarnessError;
  }
  return faultline::repro::verdict(false, std::string("extension loaded; the framework says: ") + text);
}
