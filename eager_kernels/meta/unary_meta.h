// Meta functions of the unary element-wise operators.
#pragma once

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

TensorMeta neg(const Tensor& self);
// Integral inputs give the default float dtype.
TensorMeta exp(const Tensor& self);
TensorMeta relu(const Tensor& self);

}  // namespace lz::meta
