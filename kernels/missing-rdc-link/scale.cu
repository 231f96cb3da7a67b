// The device function the kernel in main.cu calls across files.
__device__ float scale(float x) { return 2.f * x; }
