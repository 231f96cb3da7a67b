// Mechanism: the MMA dispatch carries a static assertion that both FP8 operands have the same type, so a
// GEMM of e4m3 activations with e5m2 weights, which Hopper's tensor cores accept, fails to compile.
// Source: https://github.com/NVIDIA/cutlass/issues/1268
// Fix: accept any pair of FP8 types; both are widened to float before accumulation.
#pragma once

#include <cmath>
#include <type_traits>

#include "portability.hpp"

struct E4M3 {
  unsigned char bits;
  static constexpr int kExponentBits = 4, kMantissaBits = 3, kBias = 7;
};
struct E5M2 {
  unsigned char bits;
  static constexpr int kExponentBits = 5, kMantissaBits = 2, kBias = 15;
};

// Normal and subnormal values; the NaN/Inf encodings are not used here.
template <class Fp8>
FL_HD inline float widen(Fp8 v) {
  int sign = v.bits >> 7;
  int exponent = (v.bits >> Fp8::kMantissaBits) & ((1 << Fp8::kExponentBits) - 1);
  int mantissa = v.bits & ((1 << Fp8::kMantissaBits) - 1);
  float m = exponent == 0 ? mantissa / float(1 << Fp8::kMantissaBits)
                          : 1.f + mantissa / float(1 << Fp8::kMantissaBits);
  float value = ldexpf(m, (exponent == 0 ? 1 : exponent) - Fp8::kBias);
  return sign ? -value : value;
}

template <class A, class B>
struct Fp8Mma {
#if !FAULTLINE_FIXED
  static_assert(std::is_same<A, B>::value,
                "faultline: mixed FP8 operand types (e4m3 x e5m2) are not supported");
#endif
  FL_HD static float dot(const A* a, const B* b, int n) {
    float acc = 0.f;
    for (int i = 0; i < n; ++i) acc += widen(a[i]) * widen(b[i]);
    return acc;
  }
};

constexpr int kLength = 4;
// 1.0, 2.0, 0.5, -1.0 in e4m3 and 1.0, 0.5, 2.0, 4.0 in e5m2: dot = 1 + 1 + 1 - 4 = -1.
constexpr unsigned char kE4M3Bits[kLength] = {0x38, 0x40, 0x30, 0xB8};
constexpr unsigned char kE5M2Bits[kLength] = {0x3C, 0x38, 0x40, 0x44};
constexpr float kExpectedDot = -1.f;
