// CPU impls of the pointwise operators (structured: they write `out`, whose
// sizes and dtype the meta function already fixed). Inputs of another dtype
// are converted to out's dtype first.
#pragma once

#include "core/tensor.h"

namespace lz::cpu {

void add_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
void sub_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
void mul_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void div_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void neg_impl(const Tensor& out, const Tensor& self);
void exp_impl(const Tensor& out, const Tensor& self);
void relu_impl(const Tensor& out, const Tensor& self);

// `t` (a CPU tensor) converted to `dtype`, contiguous; itself when it already has that dtype.
Tensor cast_to(const Tensor& t, ScalarType dtype);

}  // namespace lz::cpu
