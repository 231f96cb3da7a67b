// The kernel the GPU harness runs and whose PTX the build mode inspects. It loads its four operands, so
// the only arithmetic in its PTX is det2's: an fma.rn.f32 there can only be the contracted a*d - b*c.
#pragma once

#include "orientation.cuh"

__global__ void orientation_kernel(const float4* pairs, float* out) {
  const float4 p = pairs[threadIdx.x];
  out[threadIdx.x] = det2(p.x, p.y, p.z, p.w);
}
