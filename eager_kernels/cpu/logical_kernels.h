// CPU impls of the element-wise comparisons (eq, ne, lt, le, gt, ge), the
// logical operators and the bitwise operators (structured: they write `out`).
// Comparisons and logical operators compute in the inputs' common dtype and
// write bool; an in-place or out= destination of another dtype receives the
// converted result (the structured wrapper copies it in).
#pragma once

#include "core/tensor.h"

namespace lz::cpu {

void eq_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void ne_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void lt_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void le_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void gt_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void ge_impl(const Tensor& out, const Tensor& self, const Tensor& other);

void logical_and_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void logical_or_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void logical_xor_impl(const Tensor& out, const Tensor& self, const Tensor& other);

void bitwise_and_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void bitwise_or_impl(const Tensor& out, const Tensor& self, const Tensor& other);
void bitwise_xor_impl(const Tensor& out, const Tensor& self, const Tensor& other);

}  // namespace lz::cpu
