// TensorMeta: what an operator's meta function computes for each output:
// sizes, dtype and device, without touching data. Eager kernels allocate from
// it; the Lazy key records it as the type of a graph value.
#pragma once

#include <ostream>

#include "absl/container/inlined_vector.h"
#include "core/device.h"
#include "core/scalar_type.h"
#include "core/shape.h"

namespace lz {

class Tensor;

struct TensorMeta {
  SizeVec sizes;
  ScalarType dtype = ScalarType::Float;
  Device device = Device(DeviceType::CPU);

  bool operator==(const TensorMeta&) const = default;
};

using MetaList = absl::InlinedVector<TensorMeta, 2>;

// The meta of an existing tensor (its sizes, dtype and device).
TensorMeta meta_of(const Tensor& t);

std::ostream& operator<<(std::ostream& os, const TensorMeta& m);

}  // namespace lz
