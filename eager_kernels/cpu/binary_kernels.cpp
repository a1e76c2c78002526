#include "eager_kernels/cpu/binary_kernels.h"

#include "eager_kernels/cpu/elementwise.h"

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

}  // namespace lz::cpu
