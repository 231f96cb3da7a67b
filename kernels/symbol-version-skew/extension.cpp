// The prebuilt extension: one exported entry point that calls into the system runtime.
#include "runtime.h"

extern "C" int ext_scaled_sum(int a, int b) { return runtime_scale(a + b); }
