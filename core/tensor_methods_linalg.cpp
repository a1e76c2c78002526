// Tensor methods of the matrix products.
#include "core/ops_linalg.h"
#include "core/tensor.h"

namespace lz {

Tensor Tensor::mm(const Tensor& mat2) const { return lz::mm(*this, mat2); }
Tensor Tensor::bmm(const Tensor& mat2) const { return lz::bmm(*this, mat2); }
Tensor Tensor::matmul(const Tensor& other) const { return lz::matmul(*this, other); }
Tensor Tensor::addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                     const Scalar& alpha) const {
  return lz::addmm(*this, mat1, mat2, beta, alpha);
}

}  // namespace lz
