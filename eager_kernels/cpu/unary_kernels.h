// CPU impls of the unary element-wise operators (structured: they write
// `out`, whose sizes and dtype the meta function already fixed; a floating
// result of an integral input is computed from self converted to out's dtype).
#pragma once

#include <string_view>

#include "core/tensor.h"

namespace lz::cpu {

void neg_impl(const Tensor& out, const Tensor& self);
void abs_impl(const Tensor& out, const Tensor& self);
void sign_impl(const Tensor& out, const Tensor& self);
void square_impl(const Tensor& out, const Tensor& self);
void reciprocal_impl(const Tensor& out, const Tensor& self);
void exp_impl(const Tensor& out, const Tensor& self);
void exp2_impl(const Tensor& out, const Tensor& self);
void expm1_impl(const Tensor& out, const Tensor& self);
void log_impl(const Tensor& out, const Tensor& self);
void log2_impl(const Tensor& out, const Tensor& self);
void log1p_impl(const Tensor& out, const Tensor& self);
void sqrt_impl(const Tensor& out, const Tensor& self);
void rsqrt_impl(const Tensor& out, const Tensor& self);
void sin_impl(const Tensor& out, const Tensor& self);
void cos_impl(const Tensor& out, const Tensor& self);
void tan_impl(const Tensor& out, const Tensor& self);
void tanh_impl(const Tensor& out, const Tensor& self);
void sigmoid_impl(const Tensor& out, const Tensor& self);
void relu_impl(const Tensor& out, const Tensor& self);
void gelu_impl(const Tensor& out, const Tensor& self, std::string_view approximate);
void silu_impl(const Tensor& out, const Tensor& self);
void hardswish_impl(const Tensor& out, const Tensor& self);
void erf_impl(const Tensor& out, const Tensor& self);
void floor_impl(const Tensor& out, const Tensor& self);
void ceil_impl(const Tensor& out, const Tensor& self);
void round_impl(const Tensor& out, const Tensor& self);
void trunc_impl(const Tensor& out, const Tensor& self);
void logical_not_impl(const Tensor& out, const Tensor& self);
void isnan_impl(const Tensor& out, const Tensor& self);
void isinf_impl(const Tensor& out, const Tensor& self);
void bitwise_not_impl(const Tensor& out, const Tensor& self);

}  // namespace lz::cpu
