// Meta functions of the matrix products (mm, bmm, addmm): result sizes,
// dtype and device, and every argument check, with PyTorch's messages.
#pragma once

#include <string_view>

#include "core/scalar.h"
#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// TypeError unless `dtype` is one matrix products support on the CPU
// (every numeric dtype; not bool).
void check_matmul_dtype(std::string_view op, std::string_view arg, ScalarType dtype);

// [n, k] x [k, m] -> [n, m]; both 2-D and of the same dtype.
TensorMeta mm(const Tensor& self, const Tensor& mat2);
// [b, n, k] x [b, k, m] -> [b, n, m].
TensorMeta bmm(const Tensor& self, const Tensor& mat2);
// beta * self + alpha * (mat1 @ mat2); self broadcasts to [n, m].
TensorMeta addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                 const Scalar& alpha);

}  // namespace lz::meta
