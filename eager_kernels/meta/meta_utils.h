// Argument checks shared by meta functions.
#pragma once

#include <string_view>

#include "core/tensor.h"

namespace lz::meta {

// ValueError "[op] arg: expected a defined tensor" for an undefined tensor.
void check_defined(std::string_view op, std::string_view arg, const Tensor& t);

// DeviceError "[op] expected all tensors on the same device, but a_name is
// on D1 and b_name on D2" unless a and b are on one device.
void check_same_device(std::string_view op, std::string_view a_name, const Tensor& a,
                       std::string_view b_name, const Tensor& b);

// ValueError "[op] value: v cannot be converted to dtype without overflow"
// unless dtype can store `value` (fill_ of -3 into uint8, 1e5 into float16).
void check_value_fits(std::string_view op, ScalarType dtype, const Scalar& value);

// The 0-dim wrapped-number tensor a Tensor overload's meta function sees for
// number `s` (x * 2.5 promotes like x * wrapped(2.5)): its dtype (bool,
// int64 or float64), rank and flag are what promotion and broadcasting
// read; its value is zero, shared, and never read.
const Tensor& wrapped_number_meta(const Scalar& s);

// The dtype a composite computes a 16-bit float input in (float32), as
// PyTorch's opmath type: float16 exp(20) overflows, and intermediate
// roundings of a chain of 16-bit operators add up.
inline ScalarType opmath_dtype(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 ? ScalarType::Float : t;
}

}  // namespace lz::meta
