// Meta functions of the binary element-wise operators: output sizes, dtype
// and device, and every argument check (errors are raised here, before any
// kernel runs, so lazy tracing reports them at the call that caused them).
#pragma once

#include <optional>
#include <string_view>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// Broadcast shape, promoted dtype and common device of a binary operator.
// A 0-dim CPU tensor may accompany a tensor on any device (it is a scalar).
// `other_name` names the second argument in errors.
TensorMeta binary(std::string_view op, const Tensor& self, const Tensor& other,
                  std::string_view other_name = "other");

TensorMeta add(const Tensor& self, const Tensor& other, const Scalar& alpha);
TensorMeta sub(const Tensor& self, const Tensor& other, const Scalar& alpha);
TensorMeta mul(const Tensor& self, const Tensor& other);
// True division: integral results become the default float dtype.
TensorMeta div(const Tensor& self, const Tensor& other);
// rounding_mode nullopt: true division; "trunc" / "floor": the promoted
// dtype (integer results for integer inputs; bool is rejected); any other
// string is a ValueError.
TensorMeta div_mode(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);

// Promoted dtype; bool results are rejected.
TensorMeta pow(const Tensor& self, const Tensor& exponent);
// pow's meta with a number exponent; integers to negative integer powers
// are an error, as in PyTorch (pow.Tensor_Tensor truncates 1 / x^|e|).
TensorMeta pow_tensor_scalar(const Tensor& self, const Scalar& exponent);
TensorMeta remainder(const Tensor& self, const Tensor& other);
TensorMeta fmod(const Tensor& self, const Tensor& other);
// Integral and bool results become the default float dtype.
TensorMeta atan2(const Tensor& self, const Tensor& other);
TensorMeta maximum(const Tensor& self, const Tensor& other);
TensorMeta minimum(const Tensor& self, const Tensor& other);

// Comparisons and logical operators: bool results, any input dtypes.
TensorMeta eq(const Tensor& self, const Tensor& other);
TensorMeta ne(const Tensor& self, const Tensor& other);
TensorMeta lt(const Tensor& self, const Tensor& other);
TensorMeta le(const Tensor& self, const Tensor& other);
TensorMeta gt(const Tensor& self, const Tensor& other);
TensorMeta ge(const Tensor& self, const Tensor& other);
TensorMeta logical_and(const Tensor& self, const Tensor& other);
TensorMeta logical_or(const Tensor& self, const Tensor& other);
TensorMeta logical_xor(const Tensor& self, const Tensor& other);

// Integral and bool inputs only.
TensorMeta bitwise_and(const Tensor& self, const Tensor& other);
TensorMeta bitwise_or(const Tensor& self, const Tensor& other);
TensorMeta bitwise_xor(const Tensor& self, const Tensor& other);

}  // namespace lz::meta
