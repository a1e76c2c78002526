#include "core/tensor_meta.h"

namespace lz {

std::ostream& operator<<(std::ostream& os, const TensorMeta& m) {
  return os << to_string(m.dtype) << shape_str(m.sizes) << " on " << m.device;
}

}  // namespace lz
