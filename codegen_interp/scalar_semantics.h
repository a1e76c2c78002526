// Scalar semantics of the kernel IR's operations (eager_kernels/cpu's helpers,
// one value at a time), shared by the interpreter's batch loops. Inline so the
// loops in batch_eval.cpp specialise them per operation.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/error.h"
#include "core/half.h"
#include "core/scalar_math.h"
#include "core/scalar_type.h"
#include "ir/kernel_ir.h"

namespace lz::codegen_interp::detail {

using ir::ReduceOp;
using ir::ScalarOp;

// One value of an expression: `d` for floating dtypes (already rounded to
// the dtype's precision), `i` for integral dtypes (wrapped to the dtype's
// width) and bool (0 or 1). The expression's dtype says which is live.
struct Value {
  double d = 0;
  int64_t i = 0;
};

inline Value of_double(double d) { return Value{d, 0}; }
inline Value of_int(int64_t i) { return Value{0, i}; }

inline bool is_float(ScalarType t) { return is_floating_point(t); }

// The rounding of a floating dtype and the wrap of an integral one, decided
// once per expression so loops do not look at the dtype.
enum class Round : uint8_t { None, F32, F16, BF16 };
enum class Wrap : uint8_t { None, Bool, Byte, Char, Short, Int };

inline Round round_kind(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return Round::F32;
    case ScalarType::Half: return Round::F16;
    case ScalarType::BFloat16: return Round::BF16;
    default: return Round::None;
  }
}

inline Wrap wrap_kind(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return Wrap::Bool;
    case ScalarType::Byte: return Wrap::Byte;
    case ScalarType::Char: return Wrap::Char;
    case ScalarType::Short: return Wrap::Short;
    case ScalarType::Int: return Wrap::Int;
    default: return Wrap::None;
  }
}

// Float32 compute is emulated in double: one rounding of an exact
// +,-,*,/,sqrt result to float equals the float operation, since double has
// more than 2*24+2 bits.
inline double round_as(double x, Round r) {
  switch (r) {
    case Round::F32: return static_cast<float>(x);
    case Round::F16: return static_cast<float>(Half(static_cast<float>(x)));
    case Round::BF16: return static_cast<float>(BFloat16(static_cast<float>(x)));
    default: return x;
  }
}
inline double round_to(double x, ScalarType t) { return round_as(x, round_kind(t)); }

// Two's complement wrap, as eager computes integers in int64 and narrows on the store.
inline int64_t wrap_as(int64_t x, Wrap w) {
  switch (w) {
    case Wrap::Bool: return x != 0 ? 1 : 0;
    case Wrap::Byte: return static_cast<uint8_t>(static_cast<uint64_t>(x));
    case Wrap::Char: return static_cast<int8_t>(static_cast<uint8_t>(static_cast<uint64_t>(x)));
    case Wrap::Short: return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint64_t>(x)));
    case Wrap::Int: return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(x)));
    default: return x;
  }
}
inline int64_t wrap(int64_t x, ScalarType t) { return wrap_as(x, wrap_kind(t)); }

// float -> integer as eager's static_cast does on x86-64: truncation through
// a 32-bit conversion (64-bit for int64); NaN and out-of-range values give
// the "integer indefinite" INT32_MIN / INT64_MIN, then the narrowing wrap.
inline int64_t float_to_int(double v, ScalarType t) {
  if (t == ScalarType::Long) {
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
    return static_cast<int64_t>(v);
  }
  if (!(v > -2147483649.0 && v < 2147483648.0)) return wrap(INT32_MIN, t);
  return wrap(static_cast<int64_t>(v), t);
}

// The dtype conversion of eager casts and copies (convert_element): bool is
// `!= 0` (NaN is true), 16-bit floats go through float.
inline Value convert(Value v, ScalarType from, ScalarType to) {
  if (from == to) return v;
  if (is_float(from)) {
    if (to == ScalarType::Bool) return of_int(v.d != 0 ? 1 : 0);
    if (is_float(to)) return of_double(round_to(v.d, to));
    return of_int(float_to_int(v.d, to));
  }
  if (to == ScalarType::Bool) return of_int(v.i != 0 ? 1 : 0);
  if (to == ScalarType::Double) return of_double(static_cast<double>(v.i));
  if (is_float(to)) return of_double(round_to(static_cast<float>(v.i), to));  // one rounding to float
  return of_int(wrap(v.i, to));
}

inline int64_t add_wrap(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
inline int64_t sub_wrap(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
inline int64_t mul_wrap(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

// Integer division by zero is an error in eager; the kernel IR defines it as 0.
// b == -1 is a negation, so INT64_MIN / -1 wraps instead of trapping.
inline int64_t div_trunc_int(int64_t a, int64_t b) {
  if (b == 0) return 0;
  return b == -1 ? sub_wrap(0, a) : a / b;
}

inline int64_t div_floor_int(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return sub_wrap(0, a);
  const int64_t q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}

inline int64_t remainder_int(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// max/min that return NaN when either side is NaN (eager maximum, amax).
inline double max_nan(double a, double b) { return (a != a || b != b) ? a + b : (a > b ? a : b); }
inline double min_nan(double a, double b) { return (a != a || b != b) ? a + b : (a < b ? a : b); }

// A floating unary op in double; the caller rounds to the dtype. Float32
// transcendental functions are thus evaluated (nearly) correctly rounded:
// the eager vectorised versions are within 2 ulp of this.
inline double unary_float(ScalarOp op, double x) {
  switch (op) {
    case ScalarOp::Neg: return -x;
    case ScalarOp::Abs: return std::fabs(x);
    case ScalarOp::Sign: return (x > 0 ? 1.0 : 0.0) - (x < 0 ? 1.0 : 0.0);  // sign(NaN) = 0, as eager
    case ScalarOp::Reciprocal: return 1.0 / x;
    case ScalarOp::Square: return x * x;
    case ScalarOp::Exp: return std::exp(x);
    case ScalarOp::Exp2: return std::exp2(x);
    case ScalarOp::Expm1: return std::expm1(x);
    case ScalarOp::Log: return std::log(x);
    case ScalarOp::Log2: return std::log2(x);
    case ScalarOp::Log1p: return std::log1p(x);
    case ScalarOp::Sqrt: return std::sqrt(x);
    case ScalarOp::Rsqrt: return 1.0 / std::sqrt(x);
    case ScalarOp::Sin: return std::sin(x);
    case ScalarOp::Cos: return std::cos(x);
    case ScalarOp::Tan: return std::tan(x);
    case ScalarOp::Tanh: return std::tanh(x);
    case ScalarOp::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case ScalarOp::Erf: return std::erf(x);
    case ScalarOp::Floor: return std::floor(x);
    case ScalarOp::Ceil: return std::ceil(x);
    case ScalarOp::Round: return std::nearbyint(x);  // half to even (default rounding mode)
    case ScalarOp::Trunc: return std::trunc(x);
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "kernel interpreter: ", ir::to_string(op), " is not a floating unary op");
}

inline int64_t unary_int(ScalarOp op, int64_t x, ScalarType t) {
  switch (op) {
    case ScalarOp::Neg: return sub_wrap(0, x);
    case ScalarOp::Abs: return x < 0 ? sub_wrap(0, x) : x;  // abs(INT_MIN) wraps to itself
    case ScalarOp::Sign: return (x > 0) - (x < 0);
    case ScalarOp::Square: return mul_wrap(x, x);
    case ScalarOp::Floor: case ScalarOp::Ceil: case ScalarOp::Round: case ScalarOp::Trunc: return x;
    case ScalarOp::BitwiseNot: return t == ScalarType::Bool ? (x == 0 ? 1 : 0) : ~x;
    default: break;
  }
  // A floating-only op on an integer (the verifier rejects it): via double.
  return float_to_int(unary_float(op, static_cast<double>(x)), t);
}

inline double binary_float(ScalarOp op, double a, double b, ScalarType t) {
  const bool f32 = t != ScalarType::Double;
  switch (op) {
    case ScalarOp::Add: return a + b;
    case ScalarOp::Sub: return a - b;
    case ScalarOp::Mul: return a * b;
    case ScalarOp::Div: return a / b;
    case ScalarOp::FloorDiv:
      return f32 ? div_floor_float<float>(static_cast<float>(a), static_cast<float>(b)) : div_floor_float<double>(a, b);
    case ScalarOp::TruncDiv: return std::trunc(round_to(a / b, t));
    case ScalarOp::Remainder:
      return f32 ? remainder_float<float>(static_cast<float>(a), static_cast<float>(b)) : remainder_float<double>(a, b);
    case ScalarOp::Fmod: return std::fmod(a, b);
    case ScalarOp::Pow: return std::pow(a, b);
    case ScalarOp::Atan2: return std::atan2(a, b);
    case ScalarOp::Maximum: return max_nan(a, b);
    case ScalarOp::Minimum: return min_nan(a, b);
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "kernel interpreter: ", ir::to_string(op), " is not a floating binary op");
}

inline int64_t binary_int(ScalarOp op, int64_t a, int64_t b, ScalarType t) {
  switch (op) {
    case ScalarOp::Add: return add_wrap(a, b);
    case ScalarOp::Sub: return sub_wrap(a, b);
    case ScalarOp::Mul: return mul_wrap(a, b);
    case ScalarOp::Div: case ScalarOp::TruncDiv: return div_trunc_int(a, b);
    case ScalarOp::FloorDiv: return div_floor_int(a, b);
    case ScalarOp::Remainder: return remainder_int(a, b);
    case ScalarOp::Fmod: return fmod_int(a, b);
    case ScalarOp::Pow: return pow_int(a, b);
    case ScalarOp::Maximum: return std::max(a, b);
    case ScalarOp::Minimum: return std::min(a, b);
    case ScalarOp::BitwiseAnd: return a & b;
    case ScalarOp::BitwiseOr: return a | b;
    case ScalarOp::BitwiseXor: return a ^ b;
    default: break;
  }
  // atan2 on integers (the verifier rejects it): via double.
  return float_to_int(std::atan2(static_cast<double>(a), static_cast<double>(b)), t);
}

template <class T>
bool compare(ScalarOp op, T x, T y) {
  switch (op) {
    case ScalarOp::Eq: return x == y;
    case ScalarOp::Ne: return x != y;
    case ScalarOp::Lt: return x < y;
    case ScalarOp::Le: return x <= y;
    case ScalarOp::Gt: return x > y;
    default: return x >= y;
  }
}

inline Value identity(ReduceOp op, ScalarType t) {
  const bool fp = is_float(t);
  switch (op) {
    case ReduceOp::Sum: case ReduceOp::Any: return Value{};
    case ReduceOp::Prod: case ReduceOp::All: return fp ? of_double(1) : of_int(1);
    case ReduceOp::Max:
      if (fp) return of_double(-std::numeric_limits<double>::infinity());
      return of_int(integral_range(t).min);
    case ReduceOp::Min:
      if (fp) return of_double(std::numeric_limits<double>::infinity());
      return of_int(integral_range(t).max);
  }
  return Value{};
}

}  // namespace lz::codegen_interp::detail
