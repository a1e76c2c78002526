// Building blocks of element-wise CPU kernels: the type arithmetic happens
// in, converting inputs to the output dtype, and unary/binary kernels over a
// TensorIterator (whose row loop reads one-element operands, wrapped C++
// numbers and 0-dim tensors, once as values).
#pragma once

#include <type_traits>

#include "core/scalar.h"
#include "core/tensor.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/loops.h"

namespace lz::cpu {

// `t` (a CPU tensor) converted to `dtype`, contiguous; itself when it already has that dtype.
Tensor cast_to(const Tensor& t, ScalarType dtype);

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

// The single element of a one-element CPU tensor, converted to T.
template <class T>
T read_as(const Tensor& t) {
  return visit_dtype(t.dtype(), [&](auto tag) {
    using From = typename decltype(tag)::type;
    return convert_element<T>(*static_cast<const From*>(t.data_ptr()));
  });
}

// The same, as a loop over T whose data is stored as `stored` reads it: a
// float loop storing float16/bfloat16 sees the number rounded to that type.
template <class T>
T read_as(const Tensor& t, ScalarType stored) {
  if constexpr (std::is_same_v<T, float>) {
    if (stored == ScalarType::Half) return static_cast<float>(read_as<Half>(t));
    if (stored == ScalarType::BFloat16) return static_cast<float>(read_as<BFloat16>(t));
  }
  return read_as<T>(t);
}

// out = op(self, other), computed in compute_t<T> for out's dtype T (float
// for float16/bfloat16: visit_opmath_dtype); make_op(tag) builds op for that
// T. A one-element operand (a wrapped C++ number, a 0-dim tensor) is
// broadcast with stride 0, which the row loop reads once as a value.
template <class MakeOp>
void binary_kernel(const Tensor& out, const Tensor& self, const Tensor& other, MakeOp make_op) {
  const ScalarType dtype = out.dtype();
  const TensorIterator iter(out, {cast_to(self, dtype), cast_to(other, dtype)});
  visit_opmath_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const auto op = make_op(tag);
    cpu_kernel<T, T, T>(iter, [op](T x, T y) -> T {
      return static_cast<T>(op(static_cast<C>(x), static_cast<C>(y)));
    });
  });
}

// out = op(self) in compute_t<T> for out's dtype T.
template <class Op>
void unary_kernel(const Tensor& out, const Tensor& self, Op op) {
  const TensorIterator iter(out, {cast_to(self, out.dtype())});
  visit_opmath_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    cpu_kernel<T, T>(iter, [op](T x) -> T { return static_cast<T>(op(static_cast<C>(x))); });
  });
}

// A binary op whose computation does not depend on the dtype.
template <class Op>
void binary_same_type(const Tensor& out, const Tensor& self, const Tensor& other, Op op) {
  binary_kernel(out, self, other, [op](auto) { return op; });
}

}  // namespace lz::cpu
