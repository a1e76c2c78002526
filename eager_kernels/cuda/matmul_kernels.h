// Matrix products on CUDA tensors through cuBLAS: the operands are read in
// place where cuBLAS can (row- or column-major, any leading dimension,
// strided batches), else copied contiguous first. For float, double, half
// and bfloat16 (cuda::blas::supports); the caller runs integer products
// elsewhere.
#pragma once

#include "core/scalar.h"
#include "core/tensor.h"

namespace lz::cuda {

Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha);

}  // namespace lz::cuda
