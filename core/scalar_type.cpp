#include "core/scalar_type.h"

#include <limits>
#include <utility>

#include "core/error.h"

namespace lz {

namespace {

int index_of(ScalarType t) {
  const int i = static_cast<int>(t);
  if (i < 0 || i >= kNumScalarTypes) detail::throw_invalid_dtype(t);
  return i;
}

// Order within a category; promotion inside a category takes the larger rank.
enum class Category { Bool, Integral, Floating };

Category category(ScalarType t) {
  if (t == ScalarType::Bool) return Category::Bool;
  return is_floating_point(t) ? Category::Floating : Category::Integral;
}

}  // namespace

namespace detail {
void throw_invalid_dtype(ScalarType t) {
  LZ_FAIL(TypeError, "invalid dtype (enum value ", static_cast<int>(t), ")");
}
}  // namespace detail

std::string_view to_string(ScalarType t) {
  static constexpr std::string_view kNames[] = {
#define LZ_NAME_ENTRY(cpp, name, str) #str,
      LZ_FORALL_SCALAR_TYPES(LZ_NAME_ENTRY)
#undef LZ_NAME_ENTRY
  };
  if (t == ScalarType::Undefined) return "undefined";
  return kNames[index_of(t)];
}

std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << to_string(t); }


bool is_floating_point(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 || t == ScalarType::Float ||
         t == ScalarType::Double;
}

bool is_integral(ScalarType t, bool include_bool) {
  return t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short || t == ScalarType::Int ||
         t == ScalarType::Long ||
         (include_bool && t == ScalarType::Bool);
}

IntegralRange integral_range(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return {0, 1};
#define LZ_RANGE_CASE(cpp, name)        \
  case ScalarType::name:                \
    return {std::numeric_limits<cpp>::min(), static_cast<int64_t>(std::numeric_limits<cpp>::max())};
      LZ_RANGE_CASE(uint8_t, Byte)
      LZ_RANGE_CASE(int8_t, Char)
      LZ_RANGE_CASE(int16_t, Short)
      LZ_RANGE_CASE(int32_t, Int)
      LZ_RANGE_CASE(int64_t, Long)
#undef LZ_RANGE_CASE
    default: break;
  }
  LZ_FAIL(ValueError, "integral_range: ", t, " is not an integral dtype");
}

ScalarType promote_types(ScalarType a, ScalarType b) {
  index_of(a);
  index_of(b);
  if (a == b) return a;
  const Category ca = category(a), cb = category(b);
  if (ca != cb) return ca > cb ? a : b;  // the higher category wins outright
  if (ca == Category::Floating) {
    // float16 and bfloat16 have no common 16-bit type: both fit in float32.
    if ((a == ScalarType::Half && b == ScalarType::BFloat16) ||
        (a == ScalarType::BFloat16 && b == ScalarType::Half)) {
      return ScalarType::Float;
    }
  }
  // uint8 and int8: neither holds the other's range; int16 holds both.
  if ((a == ScalarType::Byte && b == ScalarType::Char) || (a == ScalarType::Char && b == ScalarType::Byte)) {
    return ScalarType::Short;
  }
  // Otherwise the wider type holds both ranges: uint8 < int8 < int16 < int32
  // < int64 and f16/bf16 < f32 < f64 in enum order.
  return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

bool can_cast(ScalarType from, ScalarType to) {
  index_of(from);
  index_of(to);
  return category(from) <= category(to);
}

namespace {

// The least and greatest values of `t` (finite ones for floating dtypes).
std::pair<double, double> value_range(ScalarType t) {
  switch (t) {
    case ScalarType::Half: return {-65504.0, 65504.0};
    case ScalarType::BFloat16: return {-3.3895313892515355e38, 3.3895313892515355e38};
    case ScalarType::Float: return {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
    case ScalarType::Double: return {std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max()};
    default: {
      const IntegralRange r = integral_range(t);
      return {static_cast<double>(r.min), static_cast<double>(r.max)};
    }
  }
}

}  // namespace

bool always_fits(ScalarType from, ScalarType to) {
  if (from == to || from == ScalarType::Bool) return true;
  if (is_floating_point(from) && !is_floating_point(to)) return false;
  const auto [from_lo, from_hi] = value_range(from);
  const auto [to_lo, to_hi] = value_range(to);
  return to_lo <= from_lo && from_hi <= to_hi;
}

ScalarType default_float_dtype() { return ScalarType::Float; }

}  // namespace lz
