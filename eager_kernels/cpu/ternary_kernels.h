// CPU impls of the ternary element-wise operators and of the binary ones
// with a value argument (structured: they write `out`, whose sizes and dtype
// the meta function fixed).
#pragma once

#include <optional>

#include "core/tensor.h"

namespace lz::cpu {

// condition ? self : other.
void where_impl(const Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other);
// min(max(self, min), max); NaN in any operand propagates.
void clamp_impl(const Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                const std::optional<Tensor>& max);
void clamp_min_impl(const Tensor& out, const Tensor& self, const Tensor& min);
void clamp_max_impl(const Tensor& out, const Tensor& self, const Tensor& max);
// self + weight * (end - self), in PyTorch's two-sided form.
void lerp_scalar_impl(const Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight);
void lerp_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight);
// self + value * tensor1 * tensor2 and self + value * tensor1 / tensor2.
void addcmul_impl(const Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                  const Scalar& value);
void addcdiv_impl(const Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                  const Scalar& value);
// mask ? value : self.
void masked_fill_scalar_impl(const Tensor& out, const Tensor& self, const Tensor& mask, const Scalar& value);
void masked_fill_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& value);

}  // namespace lz::cpu
