// Mechanism: a prebuilt library (think: a wheel's extension built with the old libstdc++ string ABI,
// _GLIBCXX_USE_CXX11_ABI=0) exports functions taking std::string; the caller is built with the new ABI.
// The mangled names differ, so linking (or, for a shared object, importing) fails with an undefined symbol.
// Source: the usual extension-loading failure of kernel libraries built against another PyTorch; see README.
// Fix: build the library and its caller with the same _GLIBCXX_USE_CXX11_ABI value.
#pragma once

#include <string>

std::string describe_kernel(const std::string& op);
