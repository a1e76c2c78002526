// Test-only entry point for the vector math emitters (vector_math.h): JIT-
// compiles a loop applying one function element-wise, so tests can measure
// the emitted code against libm and the eager kernels. No LLVM types here.
#pragma once

#include <cstdint>

#include "codegen_llvm/vector_math.h"

namespace lz::codegen_llvm {

// JIT-compiles a loop applying `fn` element-wise to n float (or double)
// values with vectors of `width` lanes (1 = scalar IR) and a scalar
// remainder loop. `y` is read only for Pow and Atan2. The compiled code
// lives for the rest of the process. Throws on a JIT failure.
using FloatMathLoop = void (*)(const float* x, const float* y, float* out, int64_t n);
using DoubleMathLoop = void (*)(const double* x, const double* y, double* out, int64_t n);
FloatMathLoop compile_math_probe_f32(MathFn fn, MathMode mode, int width);
DoubleMathLoop compile_math_probe_f64(MathFn fn, MathMode mode, int width);

// The function's name ("exp", "atan2", ...), for test messages.
const char* math_fn_name(MathFn fn);

}  // namespace lz::codegen_llvm
