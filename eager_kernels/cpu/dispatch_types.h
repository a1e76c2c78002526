// Runtime dtype -> compile-time C++ type. A kernel body is written once as a
// generic lambda and instantiated per dtype:
//   visit_dtype(t.dtype(), [&](auto tag) {
//     using scalar_t = typename decltype(tag)::type;
//     ...
//   });
// Meta functions reject unsupported dtypes before a kernel runs, so reaching
// an unsupported dtype here is an internal error.
#pragma once

#include <type_traits>

#include "core/error.h"
#include "core/scalar_type.h"

namespace lz::cpu {

template <class T>
struct TypeTag {
  using type = T;
};

template <class F>
decltype(auto) visit_dtype(ScalarType t, F&& f) {
  switch (t) {
#define LZ_VISIT_CASE(cpp, name, str) \
  case ScalarType::name: return f(TypeTag<cpp>{});
    LZ_FORALL_SCALAR_TYPES(LZ_VISIT_CASE)
#undef LZ_VISIT_CASE
    case ScalarType::Undefined: break;
  }
  LZ_INTERNAL_ASSERT(false, "visit_dtype: undefined dtype");
}

// The type arithmetic happens in: float for the 16-bit float types.
template <class T>
using opmath_t =
    std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;

// visit_dtype for element-wise kernels: float16 and bfloat16 visit as float
// (opmath_t), whose loops read and write them through float blocks
// (cpu_kernel), so a kernel body compiles once for the three float types.
// The body must take dtypes from the tensors, not from T, where storage
// matters (casting an operand, reading a number in the output's precision).
template <class F>
decltype(auto) visit_opmath_dtype(ScalarType t, F&& f) {
  switch (t) {
#define LZ_VISIT_CASE(cpp, name, str) \
  case ScalarType::name: return f(TypeTag<opmath_t<cpp>>{});
    LZ_FORALL_SCALAR_TYPES(LZ_VISIT_CASE)
#undef LZ_VISIT_CASE
    case ScalarType::Undefined: break;
  }
  LZ_INTERNAL_ASSERT(false, "visit_opmath_dtype: undefined dtype");
}

template <class T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// The element conversion of copy_ and dtype casts: 16-bit floats go through
// float, and a bool is `value != 0` (so 0.5 -> true, as in PyTorch).
template <class To, class From>
To convert_element(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return static_cast<opmath_t<From>>(v) != opmath_t<From>(0);
  } else if constexpr (is_reduced_float_v<From> || is_reduced_float_v<To>) {
    return static_cast<To>(static_cast<float>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace lz::cpu
