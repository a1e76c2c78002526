// CPU impls of the binary arithmetic operators (structured: they write
// `out`, whose sizes and dtype the meta function already fixed).
#pragma once

#include <optional>
#include <string_view>

#include "core/tensor.h"

namespace lz::cpu {

void add_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
void sub_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
void mul_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void div_impl(const Tensor& out, const Tensor& self, const Tensor& other);
// rounding_mode: nullopt (true division), "trunc" or "floor" (checked by the meta).
// Integer division by zero raises ValueError before anything is written.
void div_mode_impl(const Tensor& out, const Tensor& self, const Tensor& other,
                   std::optional<std::string_view> rounding_mode);
void pow_impl(const Tensor& out, const Tensor& self, const Tensor& exponent);
// Python's modulo: the result takes the sign of the divisor.
void remainder_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void fmod_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void atan2_impl(const Tensor& out, const Tensor& self, const Tensor& other);
// NaN propagates.
void maximum_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void minimum_impl(const Tensor& out, const Tensor& self, const Tensor& other);

}  // namespace lz::cpu
