// Compiled to PTX by the installed nvcc only to read its `.version`: the newest version its ptxas accepts.
__global__ void probe(float* x) { x[threadIdx.x] = 0.f; }
