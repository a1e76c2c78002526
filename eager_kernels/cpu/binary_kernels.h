// CPU impls of the binary arithmetic operators (structured: they write
// `out`, whose sizes and dtype the meta function already fixed).
#pragma once

#include "core/tensor.h"

namespace lz::cpu {

void add_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
void sub_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
void mul_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void div_impl(const Tensor& out, const Tensor& self, const Tensor& other);

}  // namespace lz::cpu
