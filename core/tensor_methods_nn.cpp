// Tensor methods of the neural-network operators.
#include "core/ops_nn.h"
#include "core/tensor.h"

namespace lz {

Tensor Tensor::softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return lz::softmax(*this, dim, dtype);
}
Tensor Tensor::log_softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return lz::log_softmax(*this, dim, dtype);
}

}  // namespace lz
