#include "eager_kernels/cpu/logical_kernels.h"

#include "core/type_promotion.h"
#include "eager_kernels/cpu/pointwise_loops.h"

namespace lz::cpu {

namespace {

// out (bool) = op(self, other), both converted to their common dtype and
// compared in its opmath_t T (float for the 16-bit floats).
template <class Op>
void compare_kernel(const Tensor& out, const Tensor& self, const Tensor& other, Op op) {
  const ScalarType common = result_type(self, other);
  visit_opmath_dtype(common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_loop<bool, T, T>(out, cast_to(self, common), cast_to(other, common),
                            [op](T a, T b) -> bool { return op(a, b); });
  });
}

// out (bool) = op(self != 0, other != 0) (NaN counts as true).
template <class Op>
void logical_kernel(const Tensor& out, const Tensor& self, const Tensor& other, Op op) {
  const ScalarType common = result_type(self, other);
  visit_opmath_dtype(common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_loop<bool, T, T>(out, cast_to(self, common), cast_to(other, common),
                            [op](T a, T b) -> bool { return op(a != T(0), b != T(0)); });
  });
}

}  // namespace

void eq_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  compare_kernel(out, self, other, [](auto a, auto b) { return a == b; });
}
void ne_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  compare_kernel(out, self, other, [](auto a, auto b) { return a != b; });
}
void lt_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  compare_kernel(out, self, other, [](auto a, auto b) { return a < b; });
}
void le_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  compare_kernel(out, self, other, [](auto a, auto b) { return a <= b; });
}
void gt_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  compare_kernel(out, self, other, [](auto a, auto b) { return a > b; });
}
void ge_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  compare_kernel(out, self, other, [](auto a, auto b) { return a >= b; });
}

void logical_and_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  logical_kernel(out, self, other, [](bool a, bool b) { return a && b; });
}
void logical_or_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  logical_kernel(out, self, other, [](bool a, bool b) { return a || b; });
}
void logical_xor_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  logical_kernel(out, self, other, [](bool a, bool b) { return a != b; });
}

namespace {

// Bitwise operators over integers and bool (the meta rejects floats).
template <class Op>
void bitwise_kernel(std::string_view name, const Tensor& out, const Tensor& self, const Tensor& other, Op op) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      binary_loop<T, T, T>(out, self, other, [op](T a, T b) -> T { return static_cast<T>(op(a, b)); });
    } else {
      unreachable_dtype(name, out.dtype());
    }
  });
}

}  // namespace

void bitwise_and_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  bitwise_kernel("bitwise_and", out, self, other, [](auto a, auto b) { return a & b; });
}
void bitwise_or_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  bitwise_kernel("bitwise_or", out, self, other, [](auto a, auto b) { return a | b; });
}
void bitwise_xor_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  bitwise_kernel("bitwise_xor", out, self, other, [](auto a, auto b) { return a ^ b; });
}

}  // namespace lz::cpu
