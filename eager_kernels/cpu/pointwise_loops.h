// Element-wise loops with mixed operand types, for the binary and ternary
// operators whose inputs do not all share the output's dtype (comparisons
// write bool, where reads a bool condition, masked_fill a bool mask):
//   binary_loop<bool, float, float>(out, a, b, [](float x, float y) { return x < y; });
//   ternary_loop<float, bool, float, float>(out, c, a, b, [](bool k, float x, float y) { ... });
// Each input is converted to its element type first (cast_to). A one-element
// operand (a wrapped C++ number, a 0-dim tensor, a [1, 1] tensor) reaches the
// row loop with stride 0, which fills a block with it once and runs the
// contiguous vectorised row (loops.h blocked_rows), so x < 0.5 or
// addcmul(x, 2, y) compile no loop of their own; ternary_loop binds some of
// them (see there).
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "core/error.h"
#include "eager_kernels/cpu/elementwise.h"

namespace lz::cpu {

template <class T>
inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || is_reduced_float_v<T>;

// For dtype branches a meta function rules out.
[[noreturn]] inline void unreachable_dtype(std::string_view op, ScalarType t) {
  LZ_FAIL(InternalError, "[", op, "] the meta function should have rejected dtype ", t);
}

// `t` as a loop over T reads it when the loop's data is stored as `stored`
// (the output's dtype, for most loops): converted to T (no copy when it has
// it already), except that a float loop reads float16/bfloat16 data as it is
// (cpu_kernel converts it in blocks), after converting other dtypes to the
// 16-bit `stored` type (int + half rounds through half, as in PyTorch).
template <class T>
Tensor operand_as(const Tensor& t, ScalarType stored) {
  if constexpr (std::is_same_v<T, float>) {
    if (is_reduced_float(stored)) return cast_to(t, stored);
    if (is_reduced_float(t.dtype())) return t;
  }
  return cast_to(t, scalar_type_of<T>);
}

// The type a loop reads and writes for element type T: bool is moved as
// uint8_t (the same bytes, 0 or 1), because GCC cannot vectorise loads and
// stores of bool; the lambdas still see bool.
template <class T>
using mem_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

// out[i] = f(a[i], b[i]); f returns Out.
template <class Out, class A, class B, class F>
void binary_loop(const Tensor& out, const Tensor& a, const Tensor& b, const F& f) {
  using MO = mem_t<Out>;
  using MA = mem_t<A>;
  using MB = mem_t<B>;
  const ScalarType stored = out.dtype();
  cpu_kernel<MO, MA, MB>(TensorIterator(out, {operand_as<A>(a, stored), operand_as<B>(b, stored)}), [f](MA x, MB y) -> MO {
    return static_cast<MO>(f(static_cast<A>(x), static_cast<B>(y)));
  });
}

// out[i] = f(a[i], b[i], c[i]); f returns Out. One-element b and c
// (clamp(x, lo, hi) with number bounds) are bound, so the row is one stream
// read by a one-input loop. kBindOne: a single one-element b or c is bound
// too, with a two-input loop of its own (where(c, x, 0.0) runs 16% faster
// so); otherwise it reaches the three-input loop with stride 0 and is read
// from a block filled once (loops.h blocked_rows), compiling no loop.
template <class Out, class A, class B, class C, bool kBindOne = false, class F>
void ternary_loop(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c, const F& f) {
  using MO = mem_t<Out>;
  using MA = mem_t<A>;
  using MB = mem_t<B>;
  using MC = mem_t<C>;
  const ScalarType stored = out.dtype();
  const bool sb = b.numel() == 1, sc = c.numel() == 1;
  if (sb && sc) {
    const B bv = read_as<B>(b, stored);
    const C cv = read_as<C>(c, stored);
    cpu_kernel<MO, MA>(TensorIterator(out, {operand_as<A>(a, stored)}),
                       [f, bv, cv](MA x) -> MO { return static_cast<MO>(f(static_cast<A>(x), bv, cv)); });
    return;
  }
  if constexpr (kBindOne) {
    if (sc) {
      const C cv = read_as<C>(c, stored);
      cpu_kernel<MO, MA, MB>(TensorIterator(out, {operand_as<A>(a, stored), operand_as<B>(b, stored)}),
                             [f, cv](MA x, MB y) -> MO {
                               return static_cast<MO>(f(static_cast<A>(x), static_cast<B>(y), cv));
                             });
      return;
    }
    if (sb) {
      const B bv = read_as<B>(b, stored);
      cpu_kernel<MO, MA, MC>(TensorIterator(out, {operand_as<A>(a, stored), operand_as<C>(c, stored)}),
                             [f, bv](MA x, MC z) -> MO {
                               return static_cast<MO>(f(static_cast<A>(x), bv, static_cast<C>(z)));
                             });
      return;
    }
  }
  cpu_kernel<MO, MA, MB, MC>(
      TensorIterator(out, {operand_as<A>(a, stored), operand_as<B>(b, stored), operand_as<C>(c, stored)}),
      [f](MA x, MB y, MC z) -> MO {
        return static_cast<MO>(f(static_cast<A>(x), static_cast<B>(y), static_cast<C>(z)));
      });
}

// NaN-propagating maximum and minimum (a NaN operand wins); plain ones for
// integers; or/and for bool. Written as selects so that loops vectorise.
template <class C>
inline C max_propagate_nan(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return a || b;
  } else if constexpr (std::is_floating_point_v<C>) {
    const C m = a > b ? a : b;
    return (a != a || b != b) ? a + b : m;
  } else {
    return a > b ? a : b;
  }
}
template <class C>
inline C min_propagate_nan(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return a && b;
  } else if constexpr (std::is_floating_point_v<C>) {
    const C m = a < b ? a : b;
    return (a != a || b != b) ? a + b : m;
  } else {
    return a < b ? a : b;
  }
}

}  // namespace lz::cpu
