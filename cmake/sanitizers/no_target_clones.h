// Force-included into every file of a TSan build (cmake/Sanitizers.cmake),
// and of a Clang 14 fuzz build (tests/libfuzzer/clang14_compat.h).
// GCC's target_clones (eager_kernels/cpu/loops.h) picks a clone through an
// ifunc resolver that the dynamic loader runs while relocating liblazuli,
// before the TSan runtime is initialised; the instrumented resolver crashes
// there (every TSan test binary died at start-up). In TSan builds the clones
// become one plain function for the default ISA.
#pragma once
#define target_clones(...) unused
