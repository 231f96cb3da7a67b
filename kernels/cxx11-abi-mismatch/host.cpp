// Host harness: the caller, built with the default (new) string ABI.
#include "kernel_registry.hpp"
#include "verdict.hpp"

int main() {
  std::string description = describe_kernel("gemm");
  return faultline::repro::verdict(description != "gemm: sm90 tile 128x128", "library says: " + description);
}
