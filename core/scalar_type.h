// Element types (dtypes), their C++ types, and PyTorch's type-promotion lattice.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>

#include "core/half.h"

namespace lz {

// X-macro over every dtype: _(C++ type, enumerator, short name).
#define LZ_FORALL_SCALAR_TYPES(_) \
  _(bool, Bool, bool)             \
  _(uint8_t, Byte, uint8)         \
  _(int8_t, Char, int8)           \
  _(int16_t, Short, int16)        \
  _(int32_t, Int, int32)          \
  _(int64_t, Long, int64)         \
  _(::lz::Half, Half, float16)    \
  _(::lz::BFloat16, BFloat16, bfloat16) \
  _(float, Float, float32)        \
  _(double, Double, float64)

enum class ScalarType : int8_t {
#define LZ_ENUM_ENTRY(cpp, name, str) name,
  LZ_FORALL_SCALAR_TYPES(LZ_ENUM_ENTRY)
#undef LZ_ENUM_ENTRY
  Undefined,
};
using Dtype = ScalarType;

inline constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);

// libtorch's constants, both spellings.
inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kUInt8 = ScalarType::Byte;
inline constexpr ScalarType kByte = ScalarType::Byte;
inline constexpr ScalarType kInt8 = ScalarType::Char;
inline constexpr ScalarType kChar = ScalarType::Char;
inline constexpr ScalarType kInt16 = ScalarType::Short;
inline constexpr ScalarType kShort = ScalarType::Short;
inline constexpr ScalarType kInt32 = ScalarType::Int;
inline constexpr ScalarType kInt = ScalarType::Int;
inline constexpr ScalarType kInt64 = ScalarType::Long;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kFloat16 = ScalarType::Half;
inline constexpr ScalarType kHalf = ScalarType::Half;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
inline constexpr ScalarType kFloat32 = ScalarType::Float;
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kFloat64 = ScalarType::Double;
inline constexpr ScalarType kDouble = ScalarType::Double;

// "float32", "int64", ... (PyTorch's names without the "torch." prefix).
std::string_view to_string(ScalarType t);
std::ostream& operator<<(std::ostream& os, ScalarType t);

namespace detail {
[[noreturn]] void throw_invalid_dtype(ScalarType t);
}

inline size_t element_size(ScalarType t) {
  static constexpr size_t kSizes[] = {
#define LZ_SIZE_ENTRY(cpp, name, str) sizeof(cpp),
      LZ_FORALL_SCALAR_TYPES(LZ_SIZE_ENTRY)
#undef LZ_SIZE_ENTRY
  };
  const auto i = static_cast<unsigned>(t);
  if (i >= static_cast<unsigned>(kNumScalarTypes)) [[unlikely]] detail::throw_invalid_dtype(t);
  return kSizes[i];
}
bool is_floating_point(ScalarType t);
// Integral types; bool counts only when include_bool is set (as in c10::isIntegralType).
bool is_integral(ScalarType t, bool include_bool);

// The values an integral dtype holds (bool: 0 and 1); ValueError for floats.
struct IntegralRange {
  int64_t min, max;
};
IntegralRange integral_range(ScalarType t);

// The smallest type both a and b convert to without losing range or category
// (torch.promote_types). Bool < integral < floating.
ScalarType promote_types(ScalarType a, ScalarType b);

// Whether a value computed as `from` may be written into a `to` tensor by an
// in-place or out= operator (torch.can_cast): no float->int, no int->bool.
bool can_cast(ScalarType from, ScalarType to);

// Whether every value of `from` (finite ones for floating dtypes) is one of
// `to`'s, so a checked conversion (a 0-dim fill value, Scalar::to<T>) never
// raises: int8 -> int16 or float32 -> float64, not int16 -> uint8 or
// float -> int. Bool fits every dtype.
bool always_fits(ScalarType from, ScalarType to);

// The float type used when an integer operand must become floating (true
// division, exp of an int tensor); float32 like PyTorch's default dtype.
ScalarType default_float_dtype();

template <class T>
struct CppTypeToScalarType;
#define LZ_CPP_TO_SCALAR_TYPE(cpp, name, str) \
  template <>                                 \
  struct CppTypeToScalarType<cpp> {           \
    static constexpr ScalarType value = ScalarType::name; \
  };
LZ_FORALL_SCALAR_TYPES(LZ_CPP_TO_SCALAR_TYPE)
#undef LZ_CPP_TO_SCALAR_TYPE

template <class T>
inline constexpr ScalarType scalar_type_of = CppTypeToScalarType<T>::value;

}  // namespace lz
