// Mechanism: a prebuilt extension was linked on a build machine whose system runtime is newer than the
// deployment machines'. The linker binds each call to the newest version of the symbol it sees there
// (RT_2.0 here, as glibc 2.34 did for many functions), so loading the extension next to the older runtime
// fails with "version `RT_2.0' not found", although the code uses nothing the old runtime lacks.
// Source: https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1610 (GLIBC_2.34 not found)
// Fix: build against the oldest runtime the package supports (the manylinux rule); it loads on newer ones.
#pragma once

extern "C" int runtime_scale(int x);
