// The runtime of the deployment machines: runtime_scale exists at version RT_1.0 only.
#include "runtime.h"

extern "C" int runtime_scale(int x) { return 2 * x; }
