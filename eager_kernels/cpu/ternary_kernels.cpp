#include "eager_kernels/cpu/ternary_kernels.h"

#include <cmath>

#include "core/empty_tensor.h"
#include "eager_kernels/cpu/pointwise_loops.h"

namespace lz::cpu {

void where_impl(const Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ternary_loop<T, bool, T, T, /*kBindOne=*/true>(out, condition, self, other,
                                                   [](bool c, T a, T b) -> T { return c ? a : b; });
  });
}

namespace {

// min(max(x, lo), hi) with NaN propagation from every operand (C: the
// compute type). When lo > hi every result is hi, as in PyTorch.
template <class C>
inline C clamp_value(C x, C lo, C hi) {
  C r = x < lo ? lo : x;
  r = r > hi ? hi : r;
  if constexpr (std::is_floating_point_v<C>) {
    return (lo != lo || hi != hi) ? lo + hi : r;
  } else {
    return r;
  }
}

}  // namespace

void clamp_impl(const Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                const std::optional<Tensor>& max) {
  if (!min) return clamp_max_impl(out, self, *max);
  if (!max) return clamp_min_impl(out, self, *min);
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    if constexpr (std::is_same_v<T, bool>) {
      unreachable_dtype("clamp", out.dtype());
    } else {
      ternary_loop<T, T, T, T>(out, self, *min, *max, [](T x, T lo, T hi) -> T {
        return static_cast<T>(clamp_value<C>(C(x), C(lo), C(hi)));
      });
    }
  });
}

void clamp_min_impl(const Tensor& out, const Tensor& self, const Tensor& min) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    binary_loop<T, T, T>(out, self, min,
                         [](T x, T lo) -> T { return static_cast<T>(max_propagate_nan<C>(C(x), C(lo))); });
  });
}

void clamp_max_impl(const Tensor& out, const Tensor& self, const Tensor& max) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    binary_loop<T, T, T>(out, self, max,
                         [](T x, T hi) -> T { return static_cast<T>(min_propagate_nan<C>(C(x), C(hi))); });
  });
}

namespace {

// PyTorch's lerp: the form whose rounding error is small at each end.
template <class C>
inline C lerp_value(C self, C end, C weight) {
  return std::abs(weight) < C(0.5) ? self + weight * (end - self)
                                   : end - (end - self) * (C(1) - weight);
}

}  // namespace

void lerp_scalar_impl(const Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    if constexpr (is_float_v<T>) {
      const C w = static_cast<C>(weight.to_double());
      if (std::abs(w) < C(0.5)) {
        binary_loop<T, T, T>(out, self, end, [w](T a, T b) -> T { return static_cast<T>(C(a) + w * (C(b) - C(a))); });
      } else {
        binary_loop<T, T, T>(out, self, end,
                             [w](T a, T b) -> T { return static_cast<T>(C(b) - (C(b) - C(a)) * (C(1) - w)); });
      }
    } else {
      unreachable_dtype("lerp", out.dtype());
    }
  });
}

void lerp_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    if constexpr (is_float_v<T>) {
      ternary_loop<T, T, T, T>(out, self, end, weight, [](T a, T b, T w) -> T {
        return static_cast<T>(lerp_value<C>(C(a), C(b), C(w)));
      });
    } else {
      unreachable_dtype("lerp", out.dtype());
    }
  });
}

void addcmul_impl(const Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                  const Scalar& value) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (std::is_same_v<T, bool>) {
      unreachable_dtype("addcmul", out.dtype());
    } else {
      const C v = scalar_as<T>(value);
      ternary_loop<T, T, T, T>(out, self, tensor1, tensor2, [v](T s, T a, T b) -> T {
        return static_cast<T>(C(s) + v * C(a) * C(b));
      });
    }
  });
}

void addcdiv_impl(const Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                  const Scalar& value) {
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (is_float_v<T>) {
      const C v = scalar_as<T>(value);
      ternary_loop<T, T, T, T>(out, self, tensor1, tensor2, [v](T s, T a, T b) -> T {
        return static_cast<T>(C(s) + v * C(a) / C(b));
      });
    } else {
      unreachable_dtype("addcdiv", out.dtype());
    }
  });
}

namespace {

void masked_fill_value(const Tensor& out, const Tensor& self, const Tensor& mask, const Scalar& value) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.to<T>();  // ValueError if it does not fit
    binary_loop<T, T, bool>(out, self, mask, [v](T x, bool m) -> T { return m ? v : x; });
  });
}

}  // namespace

void masked_fill_scalar_impl(const Tensor& out, const Tensor& self, const Tensor& mask, const Scalar& value) {
  masked_fill_value(out, self, mask, value);
}

void masked_fill_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& value) {
  masked_fill_value(out, self, mask, load_scalar(value.data_ptr(), value.dtype()));
}

}  // namespace lz::cpu
