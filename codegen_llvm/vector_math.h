// Branch-free float math emitted as LLVM IR, for the CPU code generator's
// element-wise kernels. emit_math() writes a straight-line sequence of
// IR (no control flow, so the caller's loops stay vectorisable) computing
// one function on a float, double, <N x float> or <N x double> value.
//
// float32 (any width): own polynomial approximations, no libm. Precise
// mode reproduces the eager kernels (eager_kernels/cpu/vec_math.h): Cody-
// Waite reduction + the same minimax coefficients, sin/cos/tan reduced in
// double with a branch-free Payne-Hanek above 2^27, special values by
// selects. pow and atan2 (absent there) work in double inside the IR: pow
// as exp2(y log2|x|) from series whose truncation error is < 2^-40, then the
// std::pow special cases; atan2 as a reduced arctangent series plus the
// quadrant, ±0, ±inf and NaN cases of std::atan2. Precise erf forms the
// exact x^2 and 1/(1 + x/2) splits of the eager erfc tail with FMA in float
// where the eager code uses double (in IR, 16 lanes became two double
// vectors and two double divisions: W6's bias + gelu kernel took 2.6-3.1
// ms instead of 1.4-1.8). Fast mode trades accuracy
// or range for speed where that is cheap (table below).
//
// float64: sqrt is llvm.sqrt and rsqrt 1/sqrt; the other functions call
// libm once per lane (scalarised, not vectorised; correctly rounded like
// the eager float64 kernels); sigmoid is 1/(1 + exp(-x)) from that call.
//
// Measured max error, float32 ulps against float64 libm (width 16; widths
// 8 and 1 give identical bits), by tests/codegen_llvm/test_vector_math.cpp
// over every 4099th float bit pattern, a dense sweep of [-12, 12], random
// values and special points (pow, atan2: special-value grids, random pairs,
// x near 1 with large y, results near overflow/underflow). Host with FMA
// (llvm.fmuladd fuses). "bound": what the test asserts. Precise differs
// from the eager vm:: functions by at most 1 ulp (expm1, tanh, sigmoid: 2).
//
//   fn       Precise (bound)  Fast (bound)   Fast mode differs by
//   exp      0.94  (1.0)      0.94  (1.0)    no subnormal results: 0 below FLT_MIN
//   exp2     1.01  (1.5)      1.01  (1.5)    no subnormal results: 0 below FLT_MIN
//   expm1    1.31  (1.5)      =              Fast = Precise
//   log      0.78  (1.0)      =              Fast = Precise
//   log2     1.44  (2.0)      =              Fast = Precise
//   log1p    0.76  (1.0)      =              Fast = Precise
//   sqrt     0.50  (0.5)      =              Fast = Precise (llvm.sqrt, correctly rounded)
//   rsqrt    0.50  (0.501)    1.47  (1.5)    1/sqrt(x) in float instead of double
//   sin      0.50  (0.75)     0.50  (0.75)   no Payne-Hanek: accurate for |x| < 2^27
//   cos      0.50  (0.75)     0.50  (0.75)     only; beyond, sin/cos give some value in
//   tan      0.50  (0.75)     0.50  (0.75)     [-1, 1], tan any value (inf/NaN -> NaN)
//   tanh     1.16  (1.5)      =              Fast = Precise: addition formula around 16 table centres
//   sigmoid  1.25  (1.5)      1.97  (2.5)    1/(1 + e^-x): no error carrying, 0 below FLT_MIN
//   erf      1.03  (1.5)      1.06  (1.5)    erfc tail without the x^2 and u = 1/(1 + x/2) splits
//   pow      0.50  (0.75)     0.53  (0.75)   shorter series (truncation < 2^-30)
//   atan2    0.50  (0.75)     0.57  (0.75)   shorter series (truncation < 2^-27)
// Precise rsqrt is 1/sqrt in double rounded once: bit-equal to the eager
// (correctly rounded) vm::rsqrt over the test's sweep (not proven for all
// 2^32 inputs).
#pragma once

#include <cstdint>

namespace llvm {
class Value;
class IRBuilderBase;
class Type;
}  // namespace llvm

namespace lz::codegen_llvm {

enum class MathMode : uint8_t { Precise, Fast };
enum class MathFn : uint8_t {
  Exp, Exp2, Expm1, Log, Log2, Log1p, Sqrt, Rsqrt, Sin, Cos, Tan, Tanh, Sigmoid, Erf, Pow, Atan2
};

// x, y: float, double, <N x float> or <N x double> (y only for Pow and
// Atan2, else nullptr): Pow is x^y, Atan2 is std::atan2(x, y) (x the
// ordinate, as torch.atan2(input, other)). Returns the result of the same
// type, emitted inline at b's insert point as branch-free IR. The
// builder's fast-math flags are ignored (cleared while emitting): the range
// reductions depend on exact IEEE rounding.
llvm::Value* emit_math(llvm::IRBuilderBase& b, MathFn fn, llvm::Value* x, llvm::Value* y, MathMode mode);

// Whether values of type t fill one zmm register as 16 floats on this host
// (the JIT's target) with AVX-512F: where emitters use AVX-512 instructions
// directly.
bool zmm_floats(llvm::Type* t);

}  // namespace lz::codegen_llvm
