// NaN and infinity for the tests' inputs and expected values.
#pragma once

#include <limits>

namespace lzt {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace lzt
