// Tensor methods of the reductions.
#include "core/ops_reduction.h"
#include "core/tensor.h"

namespace lz {

Tensor Tensor::sum(std::optional<ScalarType> dtype) const { return lz::sum(*this, dtype); }
Tensor Tensor::sum(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return lz::sum(*this, dim, keepdim, dtype);
}

}  // namespace lz
