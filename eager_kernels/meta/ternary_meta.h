// Meta functions of the ternary element-wise operators (where, clamp, lerp,
// addcmul, addcdiv) and of masked_fill: broadcast sizes, result dtype,
// device and every argument check.
#pragma once

#include <optional>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// condition must be bool; the result has the promoted dtype of self and other.
TensorMeta where(const Tensor& condition, const Tensor& self, const Tensor& other);

// At least one bound; the result has the promoted dtype of the given
// operands (bool is rejected). clamp_min / clamp_max: one bound.
TensorMeta clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max);
TensorMeta clamp_min(const Tensor& self, const Tensor& min);
TensorMeta clamp_max(const Tensor& self, const Tensor& max);

// Floating dtypes only; end (and a tensor weight) must have self's dtype.
TensorMeta lerp_scalar(const Tensor& self, const Tensor& end, const Scalar& weight);
TensorMeta lerp_tensor(const Tensor& self, const Tensor& end, const Tensor& weight);

// Promoted dtype of the three tensors; addcmul rejects bool, addcdiv
// rejects integral tensor1 and tensor2 (integer division is not supported).
TensorMeta addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value);
TensorMeta addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value);

// self's dtype, broadcast with mask (which must be bool); the value must
// fit self's dtype (a tensor value must be 0-dim).
TensorMeta masked_fill_scalar(const Tensor& self, const Tensor& mask, const Scalar& value);
TensorMeta masked_fill_tensor(const Tensor& self, const Tensor& mask, const Tensor& value);

}  // namespace lz::meta
