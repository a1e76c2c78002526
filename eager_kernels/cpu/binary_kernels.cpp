#include "eager_kernels/cpu/binary_kernels.h"

#include <atomic>
#include <cmath>
#include <cstdint>

#include "core/error.h"
#include "core/scalar_math.h"
#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/cpu/pointwise_loops.h"

namespace lz::cpu {

namespace {

// out = self + alpha * other (bool: self or (alpha and other)).
void add_with_alpha(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  binary_kernel(out, self, other, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const compute_t<T> a = scalar_as<T>(alpha);
    return [a](auto x, auto y) {
      if constexpr (std::is_same_v<T, bool>) {
        return x || (a && y);
      } else {
        return x + a * y;
      }
    };
  });
}

// ---- Integer division helpers (int64 compute; values of narrower types wrap on the store) ----

inline int64_t wrapping_neg(int64_t a) { return static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(a)); }

// a / b rounded toward zero; b == -1 is a negation, so INT64_MIN / -1 wraps instead of trapping.
inline int64_t div_trunc_int(int64_t a, int64_t b) { return b == -1 ? wrapping_neg(a) : a / b; }

// a / b rounded toward negative infinity (Python's //).
inline int64_t div_floor_int(int64_t a, int64_t b) {
  if (b == -1) return wrapping_neg(a);
  const int64_t q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}

// Python's a % b: the result has the sign of b.
inline int64_t remainder_int(int64_t a, int64_t b) {
  if (b == -1) return 0;
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// ValueError when an integer divisor (already of the computation's type T)
// holds a zero, raised before anything is written (as PyTorch's ZeroDivisionError).
template <class T>
void check_nonzero_divisor(std::string_view op, const Tensor& divisor) {
  std::atomic<bool> zero{false};
  TensorIterator(divisor, {}).for_each([&](char** data, const int64_t* strides, int64_t n) {
    bool any = false;
    for (int64_t i = 0; i < n; ++i) {
      any |= *reinterpret_cast<const T*>(data[0] + i * strides[0]) == T(0);
    }
    if (any) zero.store(true, std::memory_order_relaxed);
  });
  LZ_CHECK(!zero.load(), ValueError, "[", op,
           "] other: ZeroDivisionError: integer division or modulo by zero");
}

}  // namespace

void add_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_with_alpha(out, self, other, alpha);
}

void sub_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_with_alpha(out, self, other, -alpha);
}

void mul_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  if (out.dtype() == ScalarType::Bool) {
    binary_same_type(out, self, other, [](auto x, auto y) { return x && y; });
  } else {
    binary_same_type(out, self, other, [](auto x, auto y) { return x * y; });
  }
}

void div_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  binary_same_type(out, self, other, [](auto x, auto y) { return x / y; });
}

void div_mode_impl(const Tensor& out, const Tensor& self, const Tensor& other,
                   std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) {
    div_impl(out, self, other);
    return;
  }
  const bool floor = *rounding_mode == "floor";
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (is_int_v<T>) {
      const Tensor divisor = operand_as<T>(other, out.dtype());
      if (out.numel() > 0) check_nonzero_divisor<T>("div", divisor);
      if (floor) {
        binary_loop<T, T, T>(out, self, divisor,
                             [](T a, T b) -> T { return static_cast<T>(div_floor_int(a, b)); });
      } else {
        binary_loop<T, T, T>(out, self, divisor,
                             [](T a, T b) -> T { return static_cast<T>(div_trunc_int(a, b)); });
      }
    } else if constexpr (is_float_v<T>) {
      if (floor) {
        binary_loop<T, T, T>(out, self, other,
                             [](T a, T b) -> T { return static_cast<T>(div_floor_float<C>(C(a), C(b))); });
      } else {
        binary_loop<T, T, T>(out, self, other,
                             [](T a, T b) -> T { return static_cast<T>(std::trunc(C(a) / C(b))); });
      }
    } else {
      unreachable_dtype("div", out.dtype());
    }
  });
}

void pow_impl(const Tensor& out, const Tensor& self, const Tensor& exponent) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (std::is_same_v<T, bool>) {
      unreachable_dtype("pow", out.dtype());
    } else {
      if (exponent.unsafe_get_impl()->is_wrapped_number()) {
        // A number exponent (pow.Tensor_Scalar), as libtorch: the common
        // powers as multiplications, square roots and reciprocals; a tensor
        // exponent, even one element, goes through pow element by element.
        const C e = static_cast<C>(read_as<T>(exponent, out.dtype()));
        const TensorIterator iter(out, {operand_as<T>(self, out.dtype())});
        auto run = [&](auto f) { cpu_kernel<T, T>(iter, [f](T x) -> T { return static_cast<T>(f(C(x))); }); };
        if (e == C(2)) return run([](C x) { return x * x; });
        if (e == C(3)) return run([](C x) { return x * x * x; });
        if constexpr (is_float_v<T>) {
          if (e == C(0.5)) return run([](C x) { return std::sqrt(x); });
          if (e == C(-0.5)) return run([](C x) { return C(1) / std::sqrt(x); });
          if (e == C(-1)) return run([](C x) { return C(1) / x; });
          if (e == C(-2)) return run([](C x) { return C(1) / (x * x); });
          return run([e](C x) { return std::pow(x, e); });
        } else {
          return run([e](C x) { return pow_int(x, e); });
        }
      }
      if constexpr (is_float_v<T>) {
        binary_loop<T, T, T>(out, self, exponent,
                             [](T a, T b) -> T { return static_cast<T>(std::pow(C(a), C(b))); });
      } else {
        binary_loop<T, T, T>(out, self, exponent,
                             [](T a, T b) -> T { return static_cast<T>(pow_int(a, b)); });
      }
    }
  });
}

void remainder_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (is_int_v<T>) {
      const Tensor divisor = operand_as<T>(other, out.dtype());
      if (out.numel() > 0) check_nonzero_divisor<T>("remainder", divisor);
      binary_loop<T, T, T>(out, self, divisor,
                           [](T a, T b) -> T { return static_cast<T>(remainder_int(a, b)); });
    } else if constexpr (is_float_v<T>) {
      binary_loop<T, T, T>(out, self, other,
                           [](T a, T b) -> T { return static_cast<T>(remainder_float<C>(C(a), C(b))); });
    } else {
      unreachable_dtype("remainder", out.dtype());
    }
  });
}

void fmod_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (is_int_v<T>) {
      const Tensor divisor = operand_as<T>(other, out.dtype());
      if (out.numel() > 0) check_nonzero_divisor<T>("fmod", divisor);
      binary_loop<T, T, T>(out, self, divisor, [](T a, T b) -> T { return static_cast<T>(fmod_int(a, b)); });
    } else if constexpr (is_float_v<T>) {
      binary_loop<T, T, T>(out, self, other, [](T a, T b) -> T { return static_cast<T>(std::fmod(C(a), C(b))); });
    } else {
      unreachable_dtype("fmod", out.dtype());
    }
  });
}

void atan2_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (is_float_v<T>) {
      binary_loop<T, T, T>(out, self, other,
                           [](T a, T b) -> T { return static_cast<T>(std::atan2(C(a), C(b))); });
    } else {
      unreachable_dtype("atan2", out.dtype());
    }
  });
}

void maximum_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  binary_kernel(out, self, other, [](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [](C a, C b) { return max_propagate_nan<C>(a, b); };
  });
}

void minimum_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  binary_kernel(out, self, other, [](auto tag) {
    using C = compute_t<typename decltype(tag)::type>;
    return [](C a, C b) { return min_propagate_nan<C>(a, b); };
  });
}

}  // namespace lz::cpu
