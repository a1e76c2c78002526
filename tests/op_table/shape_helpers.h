// Small helpers shared by the shape entries (entries_shape.cpp) and the
// indexing entries (entries_indexing.cpp): dim wrapping, a fill value per
// dtype.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tests/op_table/op_info.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

// A possibly negative dim of an nd-dim tensor (0-dim tensors take dims 0
// and -1) as a non-negative one.
inline int64_t wrap(int64_t d, int64_t nd) {
  const int64_t r = std::max<int64_t>(nd, 1);
  return d < 0 ? d + r : d;
}

// A value of each dtype for fills (pad, scatter.value).
inline lz::Scalar fill_scalar(lz::ScalarType t) {
  if (t == lz::kBool) return lz::Scalar(true);
  if (t == lz::kUInt8) return lz::Scalar(int64_t{7});
  if (is_int(t)) return lz::Scalar(int64_t{-3});
  return lz::Scalar(2.5);
}

}  // namespace lzt
