// Scalar: a number passed to an operator (alpha, a fill value, x + 2.5). It
// keeps its category (bool, integral, floating) for type promotion.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>

#include "core/half.h"
#include "core/scalar_type.h"

namespace lz {

class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Double };

  Scalar() : Scalar(int64_t{0}) {}
  Scalar(bool v) : kind_(Kind::Bool), i_(v ? 1 : 0) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(Kind::Int), i_(static_cast<int64_t>(v)) {}
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : kind_(Kind::Double), d_(static_cast<double>(v)) {}
  Scalar(Half v) : Scalar(static_cast<float>(v)) {}
  Scalar(BFloat16 v) : Scalar(static_cast<float>(v)) {}

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_integral(bool include_bool) const {
    return kind_ == Kind::Int || (include_bool && kind_ == Kind::Bool);
  }
  bool is_floating_point() const { return kind_ == Kind::Double; }
  // The dtype a 0-dim tensor made from this scalar gets: bool, int64 or float64.
  ScalarType type() const;

  double to_double() const { return kind_ == Kind::Double ? d_ : static_cast<double>(i_); }
  // ValueError if a floating value is not finite or does not fit in int64.
  int64_t to_long() const;
  bool to_bool() const { return kind_ == Kind::Double ? d_ != 0.0 : i_ != 0; }

  // Converts with range checks for integral targets (uint8: [0, 255] etc.).
  template <class T>
  T to() const;

  // libtorch's spellings.
  double toDouble() const { return to_double(); }
  float toFloat() const { return to<float>(); }
  int64_t toLong() const { return to_long(); }
  int toInt() const { return to<int32_t>(); }
  bool toBool() const { return to_bool(); }
  bool isFloatingPoint() const { return is_floating_point(); }
  bool isIntegral(bool include_bool) const { return is_integral(include_bool); }
  bool isBoolean() const { return is_bool(); }

  Scalar operator-() const;
  std::string str() const;

 private:
  Kind kind_;
  union {
    int64_t i_;
    double d_;
  };
};

std::ostream& operator<<(std::ostream& os, const Scalar& s);

namespace detail {
[[noreturn]] void throw_scalar_overflow(const Scalar& s, ScalarType target);

template <class T>
constexpr double max_finite() {
  if constexpr (std::is_same_v<T, Half>) {
    return 65504.0;
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return 3.3895313892515355e38;  // (2 - 2^-7) * 2^127
  } else {
    return static_cast<double>(std::numeric_limits<T>::max());
  }
}
}  // namespace detail

template <class T>
T Scalar::to() const {
  if constexpr (std::is_same_v<T, bool>) {
    return to_bool();
  } else if constexpr (std::is_integral_v<T>) {
    if (kind_ == Kind::Double) {
      const double d = d_;
      // int64's max rounds up to 2^63 as a double, which does not fit: the
      // upper bound is inclusive only when the max is exact in a double.
      constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
      constexpr bool hi_exact = std::numeric_limits<T>::digits <= std::numeric_limits<double>::digits;
      if (!(d >= static_cast<double>(std::numeric_limits<T>::min()) &&
            (d < hi || (hi_exact && d == hi)))) {
        detail::throw_scalar_overflow(*this, scalar_type_of<T>);
      }
      return static_cast<T>(d);
    }
    if (i_ < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        (i_ > 0 && static_cast<uint64_t>(i_) > static_cast<uint64_t>(std::numeric_limits<T>::max()))) {
      detail::throw_scalar_overflow(*this, scalar_type_of<T>);
    }
    return static_cast<T>(i_);
  } else {
    // Finite values beyond the type's range are an error, as in PyTorch
    // (fill_(70000) on float16 would otherwise silently give inf).
    const double d = to_double();
    const double max = detail::max_finite<T>();
    if (std::isfinite(d) && (d > max || d < -max)) detail::throw_scalar_overflow(*this, scalar_type_of<T>);
    return static_cast<T>(static_cast<float>(d));
  }
}

template <>
inline double Scalar::to<double>() const {
  return to_double();
}

}  // namespace lz
