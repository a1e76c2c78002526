#include "eager_kernels/cpu/unary_kernels.h"

#include <cmath>

#include "eager_kernels/cpu/elementwise.h"

namespace lz::cpu {

void neg_impl(const Tensor& out, const Tensor& self) {
  unary_kernel(out, self, [](auto x) { return -x; });
}

void exp_impl(const Tensor& out, const Tensor& self) {
  unary_kernel(out, self, [](auto x) { return std::exp(x); });
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

}  // namespace lz::cpu
