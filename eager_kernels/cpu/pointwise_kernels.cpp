#include "eager_kernels/cpu/pointwise_kernels.h"

#include <cmath>

#include "core/ops_copy.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/loops.h"

namespace lz::cpu {

namespace {

// Integers compute in int64 and wrap on the store (uint8 255 + 1 == 0, as in
// PyTorch); 16-bit floats compute in float; the rest in their own type.
template <class T>
using compute_t =
    std::conditional_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int64_t, opmath_t<T>>;

template <class T>
compute_t<T> scalar_as(const Scalar& s) {
  if constexpr (std::is_same_v<compute_t<T>, int64_t>) {
    return s.to_long();
  } else if constexpr (std::is_same_v<T, bool>) {
    return s.to_bool();
  } else {
    return static_cast<compute_t<T>>(s.to_double());
  }
}

// out = self + alpha * other, in out's dtype.
void add_with_alpha(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  const TensorIterator iter(out, {cast_to(self, out.dtype()), cast_to(other, out.dtype())});
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const C a = scalar_as<T>(alpha);
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel<T, T, T>(iter, [a](T x, T y) -> T { return x || (a && y); });
    } else {
      cpu_kernel<T, T, T>(iter, [a](T x, T y) -> T {
        return static_cast<T>(static_cast<C>(x) + a * static_cast<C>(y));
      });
    }
  });
}

template <class Op>
void binary_same_type(const Tensor& out, const Tensor& self, const Tensor& other, Op op) {
  const TensorIterator iter(out, {cast_to(self, out.dtype()), cast_to(other, out.dtype())});
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    cpu_kernel<T, T, T>(iter, [op](T x, T y) -> T {
      return static_cast<T>(op(static_cast<C>(x), static_cast<C>(y)));
    });
  });
}

template <class Op>
void unary_same_type(const Tensor& out, const Tensor& self, Op op) {
  const TensorIterator iter(out, {cast_to(self, out.dtype())});
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    cpu_kernel<T, T>(iter, [op](T x) -> T { return static_cast<T>(op(static_cast<C>(x))); });
  });
}

}  // namespace

Tensor cast_to(const Tensor& t, ScalarType dtype) {
  return t.dtype() == dtype ? t : _to_copy(t, dtype);
}

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

void neg_impl(const Tensor& out, const Tensor& self) {
  unary_same_type(out, self, [](auto x) { return -x; });
}

void exp_impl(const Tensor& out, const Tensor& self) {
  unary_same_type(out, self, [](auto x) { return std::exp(x); });
}

void relu_impl(const Tensor& out, const Tensor& self) {
  // `x < 0 ? 0 : x` keeps NaN (like clamp_min), where `x > 0 ? x : 0` would not.
  // (The meta function rejects bool, which has no sign.)
  unary_same_type(out, self, [](auto x) {
    if constexpr (std::is_same_v<decltype(x), bool>) {
      return x;
    } else {
      return x < 0 ? decltype(x)(0) : x;
    }
  });
}

}  // namespace lz::cpu
