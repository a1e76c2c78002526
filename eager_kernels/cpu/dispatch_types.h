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

template <class T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

}  // namespace lz::cpu
