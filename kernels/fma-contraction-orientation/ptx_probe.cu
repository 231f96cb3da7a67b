// Compiled to PTX only, for the build mode's inspection of the fused multiply-add.
#include "orientation_kernel.cuh"
