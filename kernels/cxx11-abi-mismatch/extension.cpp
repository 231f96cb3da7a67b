// The prebuilt extension: a C entry point for the loader, calling into the framework with std::string.
#include <cstring>

#include "kernel_registry.hpp"

extern "C" int ext_describe(const char* op, char* out, int size) {
  const std::string text = describe_kernel(op);
  std::strncpy(out, text.c_str(), static_cast<size_t>(size) - 1);
  out[size - 1] = '\0';
  return static_cast<int>(text.size());
}
