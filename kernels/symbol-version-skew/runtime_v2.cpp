// The runtime of the build machine: the same function, kept at RT_1.0 for old binaries and re-released as
// the default RT_2.0, which is what anything linked here binds to.
extern "C" int runtime_scale_rt1(int x) { return 2 * x; }
extern "C" int runtime_scale_rt2(int x) { return 2 * x; }
__asm__(".symver runtime_scale_rt1, runtime_scale@RT_1.0");
__asm__(".symver runtime_scale_rt2, runtime_scale@@RT_2.0");
