// Mechanism: a prebuilt extension (think: a wheel's kernels built against a PyTorch compiled with the old
// libstdc++ string ABI, _GLIBCXX_USE_CXX11_ABI=0) calls a framework function taking std::string; the
// framework it is deployed with uses the new ABI. The mangled names differ, so importing the extension fails
// with "undefined symbol". Source: no single issue; the extension-import failure GCC's dual ABI documents.
// Fix: build the extension with the framework's _GLIBCXX_USE_CXX11_ABI value.
#pragma once

#include <string>

std::string describe_kernel(const std::string& op);
