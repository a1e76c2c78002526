// The rule lazy results are held to against eager ones (LZ_CHECK_EAGER and
// the differential fuzzer, tests/fuzz): a value computed without rounding
// must match bit for bit; otherwise each rounding step may move it by a few
// units of the coarsest dtype it was computed in, relative to the largest
// magnitude the computation saw:
//   |lazy - eager| <= 8 u scale (steps + 1) + 8 u_result |eager|
// NaN matches NaN; infinities match only themselves.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/scalar_type.h"

namespace lz::lazy {

// What is known of how a value was computed.
struct Rounding {
  bool exact = true;   // no rounding anywhere: compared exactly
  double unit = 0;     // the coarsest unit roundoff among its dtypes
  double scale = 0;    // the largest finite magnitude its computation saw
  double steps = 0;    // rounding steps (a reduction of n values: n)
};

// 2^-24 for float32, 2^-11 for float16, ...; 0 for integral dtypes.
double unit_roundoff(ScalarType t);

struct Mismatch {
  int64_t index = 0;     // the element
  double expected = 0;
  double actual = 0;
  double allowed = 0;    // the tolerance there (0: exact)
};

// The first element (in order) where `actual` breaks the rule against
// `expected`, values of dtype `dtype` computed as `r` says.
std::optional<Mismatch> first_mismatch(std::span<const double> expected, std::span<const double> actual,
                                       const Rounding& r, ScalarType dtype);

}  // namespace lz::lazy
