// CPU impls of the unary element-wise operators (structured: they write
// `out`, whose sizes and dtype the meta function already fixed).
#pragma once

#include "core/tensor.h"

namespace lz::cpu {

void neg_impl(const Tensor& out, const Tensor& self);
void exp_impl(const Tensor& out, const Tensor& self);
void relu_impl(const Tensor& out, const Tensor& self);

}  // namespace lz::cpu
