#include "lazy/tolerance.h"

#include <cmath>

namespace lz::lazy {

double unit_roundoff(ScalarType t) {
  switch (t) {
    case ScalarType::Half: return 0x1.0p-11;
    case ScalarType::BFloat16: return 0x1.0p-8;
    case ScalarType::Float: return 0x1.0p-24;
    case ScalarType::Double: return 0x1.0p-53;
    default: return 0;
  }
}

std::optional<Mismatch> first_mismatch(std::span<const double> expected, std::span<const double> actual,
                                       const Rounding& r, ScalarType dtype) {
  const bool exact = r.exact || unit_roundoff(dtype) == 0;
  const double atol = exact ? 0 : 8 * r.unit * r.scale * (r.steps + 1);
  const double rtol = exact ? 0 : 8 * unit_roundoff(dtype);
  for (size_t k = 0; k < expected.size() && k < actual.size(); ++k) {
    const double x = expected[k], y = actual[k];
    if (x == y || (std::isnan(x) && std::isnan(y))) continue;
    const double allowed = atol + rtol * std::abs(x);
    if (!exact && std::isfinite(x) && std::isfinite(y) && std::abs(x - y) <= allowed) continue;
    return Mismatch{static_cast<int64_t>(k), x, y, allowed};
  }
  return std::nullopt;
}

}  // namespace lz::lazy
