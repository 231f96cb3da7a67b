// The kernel whose PTX the build mode inspects: the fused form shows up as fma.rn.f32.
#pragma once

#include "orientation.cuh"

__global__ void orientation_kernel(float* out) { out[threadIdx.x] = orientation(threadIdx.x); }
