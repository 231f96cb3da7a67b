// Mechanism: a fast kernel is shipped only for a newer architecture than the device has, and the library
// launches it without checking the device's compute capability. The launch fails with "no kernel image is
// available for execution on the device" instead of taking the portable path.
// Source: https://github.com/bitsandbytes-foundation/bitsandbytes/issues/444
// Fix: check the capability first and fall back to the portable kernel on older devices.
#pragma once

// The fast path's kernel images are built for compute capability 10.0 (Blackwell) and up only.
constexpr int kFastPathMajor = 10;

enum class Path { kFast, kPortable };

inline Path choose_path(int device_major) {
#if FAULTLINE_FIXED
  return device_major >= kFastPathMajor ? Path::kFast : Path::kPortable;
#else
  (void)device_major;
  return Path::kFast;
#endif
}
