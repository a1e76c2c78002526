// Meta functions of the unary element-wise operators: the result has
// self's sizes; dtype rules follow PyTorch.
#pragma once

#include <string_view>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// Same dtype as self; bool rejected (TypeError).
TensorMeta neg(const Tensor& self);
TensorMeta abs(const Tensor& self);
TensorMeta relu(const Tensor& self);
TensorMeta floor(const Tensor& self);
TensorMeta ceil(const Tensor& self);
TensorMeta round(const Tensor& self);
TensorMeta trunc(const Tensor& self);
// Same dtype as self, bool included.
TensorMeta sign(const Tensor& self);
// Same dtype, except bool gives int64 (PyTorch's square is pow(self, 2)).
TensorMeta square(const Tensor& self);

// Floating-valued functions: integral and bool inputs give the default
// float dtype (float32); floating inputs keep their dtype.
TensorMeta reciprocal(const Tensor& self);
TensorMeta exp(const Tensor& self);
TensorMeta exp2(const Tensor& self);
TensorMeta expm1(const Tensor& self);
TensorMeta log(const Tensor& self);
TensorMeta log2(const Tensor& self);
TensorMeta log1p(const Tensor& self);
TensorMeta sqrt(const Tensor& self);
TensorMeta rsqrt(const Tensor& self);
TensorMeta sin(const Tensor& self);
TensorMeta cos(const Tensor& self);
TensorMeta tan(const Tensor& self);
TensorMeta tanh(const Tensor& self);
TensorMeta sigmoid(const Tensor& self);
TensorMeta erf(const Tensor& self);

// Floating dtypes only (TypeError otherwise). gelu's approximate is 'none'
// (erf form) or 'tanh' (ValueError otherwise).
TensorMeta gelu(const Tensor& self, std::string_view approximate);
TensorMeta silu(const Tensor& self);
TensorMeta hardswish(const Tensor& self);

// Bool results for every dtype.
TensorMeta logical_not(const Tensor& self);
TensorMeta isnan(const Tensor& self);
TensorMeta isinf(const Tensor& self);

// Integral and bool dtypes only (TypeError for floating dtypes).
TensorMeta bitwise_not(const Tensor& self);

}  // namespace lz::meta
