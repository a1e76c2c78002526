#include "eager_kernels/cpu/unary_kernels.h"

#include <cmath>
#include <type_traits>

#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/cpu/vec_math.h"

namespace lz::cpu {

namespace {

// Runs `f` with the C++ type a floating dtype computes in (float for the
// 16-bit floats, whose rows the float loop converts: visit_opmath_dtype).
template <class F>
void visit_floating(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::Float: f(TypeTag<float>{}); return;
    case ScalarType::Double: f(TypeTag<double>{}); return;
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "unary kernel: expected a floating dtype, got ", t);
}

// out = op(self) for a floating out: float16/bfloat16 compute in float
// (op's float overload, the vectorised vec_math functions), float64 in
// double. An integral self is converted to out's dtype first.
template <class Op>
void floating_kernel(const Tensor& out, const Tensor& self, Op op) {
  const ScalarType dtype = out.dtype();
  const TensorIterator iter(out, {cast_to(self, dtype)});
  visit_floating(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    cpu_kernel<T, T>(iter, [op](T x) -> T { return static_cast<T>(op(static_cast<C>(x))); });
  });
}

// A bool result of every element of self (any dtype), read in its own type
// (16-bit floats as float).
template <class Op>
void predicate_kernel(const Tensor& out, const Tensor& self, Op op) {
  const TensorIterator iter(out, {self});
  visit_opmath_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    cpu_kernel<bool, T>(iter, [op](T x) -> bool { return op(static_cast<C>(x)); });
  });
}

// A floating function: one overload for float (vec_math), one for double (libm).
#define LZ_FLOAT_OP(Name, float_expr, double_expr)              \
  struct Name {                                                 \
    float operator()(float x) const { return float_expr; }      \
    double operator()(double x) const { return double_expr; }   \
  };

LZ_FLOAT_OP(ReciprocalOp, 1.0f / x, 1.0 / x)
LZ_FLOAT_OP(ExpOp, vm::exp(x), std::exp(x))
LZ_FLOAT_OP(Exp2Op, vm::exp2(x), std::exp2(x))
LZ_FLOAT_OP(Expm1Op, vm::expm1(x), std::expm1(x))
LZ_FLOAT_OP(LogOp, vm::log(x), std::log(x))
LZ_FLOAT_OP(Log2Op, vm::log2(x), std::log2(x))
LZ_FLOAT_OP(Log1pOp, vm::log1p(x), std::log1p(x))
LZ_FLOAT_OP(SqrtOp, vm::sqrt(x), std::sqrt(x))
LZ_FLOAT_OP(RsqrtOp, vm::rsqrt(x), 1.0 / std::sqrt(x))
LZ_FLOAT_OP(SinOp, vm::sin(x), std::sin(x))
LZ_FLOAT_OP(CosOp, vm::cos(x), std::cos(x))
LZ_FLOAT_OP(TanOp, vm::tan(x), std::tan(x))
LZ_FLOAT_OP(TanhOp, vm::tanh(x), std::tanh(x))
LZ_FLOAT_OP(SigmoidOp, vm::sigmoid(x), 1.0 / (1.0 + std::exp(-x)))
LZ_FLOAT_OP(ErfOp, vm::erf(x), std::erf(x))
// hardswish = x relu6(x + 3) / 6 (NaN stays NaN: std::max/min return their
// first argument when a comparison with NaN is false).
LZ_FLOAT_OP(HardswishOp, x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f,
            x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0)
// gelu = x/2 (1 + erf(x/sqrt 2)) = x/2 erfc(-x/sqrt 2); erfc keeps the
// negative tail accurate in double too.
LZ_FLOAT_OP(GeluOp, vm::gelu(x), 0.5 * x * std::erfc(-x * 0.70710678118654752440))
LZ_FLOAT_OP(GeluTanhOp, vm::gelu_tanh(x),
            0.5 * x * (1.0 + std::tanh(0.79788456080286535588 * (x + 0.044715 * x * x * x))))
LZ_FLOAT_OP(SiluOp, vm::silu(x), x / (1.0 + std::exp(-x)))
LZ_FLOAT_OP(FloorOp, vm::floor(x), vm::floor(x))
LZ_FLOAT_OP(CeilOp, vm::ceil(x), vm::ceil(x))
LZ_FLOAT_OP(RoundOp, vm::round_half_even(x), vm::round_half_even(x))
LZ_FLOAT_OP(TruncOp, vm::trunc(x), vm::trunc(x))
#undef LZ_FLOAT_OP

// floor/ceil/round/trunc: identities on integers (the meta rejects bool).
template <class Op>
void rounding_kernel(const Tensor& out, const Tensor& self, Op op) {
  if (is_floating_point(out.dtype())) {
    floating_kernel(out, self, op);
  } else {
    unary_kernel(out, self, [](auto x) { return x; });
  }
}

}  // namespace

void neg_impl(const Tensor& out, const Tensor& self) {
  unary_kernel(out, self, [](auto x) { return -x; });
}

void abs_impl(const Tensor& out, const Tensor& self) {
  // Integers compute in int64: abs(INT32_MIN) wraps to itself, as in PyTorch.
  unary_kernel(out, self, [](auto x) {
    if constexpr (std::is_floating_point_v<decltype(x)>) {
      return std::fabs(x);
    } else if constexpr (std::is_same_v<decltype(x), bool>) {
      return x;
    } else {
      return x < 0 ? -x : x;
    }
  });
}

void sign_impl(const Tensor& out, const Tensor& self) {
  // (0 < x) - (x < 0): sign(NaN) is 0 and sign(-0.0) is 0, as in PyTorch.
  unary_kernel(out, self, [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_same_v<C, bool>) {
      return x;
    } else {
      return static_cast<C>((x > C(0) ? C(1) : C(0)) - (x < C(0) ? C(1) : C(0)));
    }
  });
}

void square_impl(const Tensor& out, const Tensor& self) {
  unary_kernel(out, self, [](auto x) { return x * x; });
}

void reciprocal_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, ReciprocalOp{}); }
void exp_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, ExpOp{}); }
void exp2_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, Exp2Op{}); }
void expm1_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, Expm1Op{}); }
void log_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, LogOp{}); }
void log2_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, Log2Op{}); }
void log1p_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, Log1pOp{}); }
void sqrt_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, SqrtOp{}); }
void rsqrt_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, RsqrtOp{}); }
void sin_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, SinOp{}); }
void cos_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, CosOp{}); }
void tan_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, TanOp{}); }
void tanh_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, TanhOp{}); }
void sigmoid_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, SigmoidOp{}); }
void erf_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, ErfOp{}); }
void silu_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, SiluOp{}); }
void hardswish_impl(const Tensor& out, const Tensor& self) { floating_kernel(out, self, HardswishOp{}); }

void gelu_impl(const Tensor& out, const Tensor& self, std::string_view approximate) {
  if (approximate == "tanh") {
    floating_kernel(out, self, GeluTanhOp{});
  } else {
    floating_kernel(out, self, GeluOp{});
  }
}

void relu_impl(const Tensor& out, const Tensor& self) {
  // `x < 0 ? 0 : x` keeps NaN (like clamp_min), where `x > 0 ? x : 0` would not.
  // (The meta function rejects bool, which has no sign.)
  unary_kernel(out, self, [](auto x) {
    if constexpr (std::is_same_v<decltype(x), bool>) {
      return x;
    } else {
      return x < 0 ? decltype(x)(0) : x;
    }
  });
}

void floor_impl(const Tensor& out, const Tensor& self) { rounding_kernel(out, self, FloorOp{}); }
void ceil_impl(const Tensor& out, const Tensor& self) { rounding_kernel(out, self, CeilOp{}); }
void round_impl(const Tensor& out, const Tensor& self) { rounding_kernel(out, self, RoundOp{}); }
void trunc_impl(const Tensor& out, const Tensor& self) { rounding_kernel(out, self, TruncOp{}); }

void logical_not_impl(const Tensor& out, const Tensor& self) {
  predicate_kernel(out, self, [](auto x) { return x == decltype(x)(0); });
}

void isnan_impl(const Tensor& out, const Tensor& self) {
  predicate_kernel(out, self, [](auto x) {
    if constexpr (std::is_floating_point_v<decltype(x)>) {
      return x != x;
    } else {
      return false;
    }
  });
}

void isinf_impl(const Tensor& out, const Tensor& self) {
  predicate_kernel(out, self, [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point_v<C>) {
      return std::fabs(x) == std::numeric_limits<C>::infinity();
    } else {
      return false;
    }
  });
}

void bitwise_not_impl(const Tensor& out, const Tensor& self) {
  // The meta function admits integers and bool only.
  const TensorIterator iter(out, {self});
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel<bool, bool>(iter, [](bool x) -> bool { return !x; });
    } else if constexpr (std::is_integral_v<T>) {
      cpu_kernel<T, T>(iter, [](T x) -> T { return static_cast<T>(~x); });
    } else {
      LZ_INTERNAL_ASSERT(false, "bitwise_not: unexpected dtype ", out.dtype());
    }
  });
}

}  // namespace lz::cpu
