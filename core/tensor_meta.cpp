#include "core/tensor_meta.h"

#include "core/tensor.h"

namespace lz {

TensorMeta meta_of(const Tensor& t) {
  return TensorMeta{SizeVec(t.sizes().begin(), t.sizes().end()), t.dtype(), t.device()};
}

std::ostream& operator<<(std::ostream& os, const TensorMeta& m) {
  return os << to_string(m.dtype) << shape_str(m.sizes) << " on " << m.device;
}

}  // namespace lz
