// Lets one source of kernel logic compile for the GPU (nvcc) and for the host harness (a C++ compiler),
// so the CPU runs exactly the functions the kernel calls.
#pragma once

#ifdef __CUDACC__
#define FL_HD __host__ __device__
#else
#define FL_HD
#endif

// Each reproducer is built twice: FAULTLINE_FIXED=0 (the buggy variant) and FAULTLINE_FIXED=1.
#ifndef FAULTLINE_FIXED
#define FAULTLINE_FIXED 0
#endif
