// Building blocks the derivative formulas share.
#pragma once

#include "core/optional_int_array_ref.h"
#include "core/tensor.h"

namespace lz::autograd {

// `grad` summed over the dimensions broadcasting added or expanded, down to `sizes`.
Tensor sum_to(const Tensor& grad, IntArrayRef sizes);
// The gradient of a reduction over `dims` (all when empty/nullopt), given
// the gradient of its result: the reduced dimensions restored (unless
// keepdim kept them) and expanded back to `input_sizes`.
Tensor expand_reduced(const Tensor& grad, IntArrayRef input_sizes, OptionalIntArrayRef dims, bool keepdim);
// `t` (a reduction's result) with the reduced dimensions restored as size 1
// unless keepdim kept them, so that it broadcasts against the input.
Tensor restore_reduced_dims(const Tensor& t, int64_t input_dim, OptionalIntArrayRef dims, bool keepdim);

// Zeros of `sizes` with `like`'s dtype and device, lazy when `like` is
// (so that a lazy backward stays one graph).
Tensor zeros_for(const Tensor& like, IntArrayRef sizes);
// `grad` (the gradient of a view of a contiguous tensor of `input_sizes`
// with the view's `sizes`, `strides`, `offset` in elements) written into
// zeros of the input's sizes.
Tensor scatter_into_zeros(const Tensor& grad, IntArrayRef input_sizes, IntArrayRef sizes, IntArrayRef strides,
                          int64_t offset);

// The gradients of mm(mat1, mat2) given the gradient of its result, each
// laid out as its operand is: an operand that is the transpose of a
// contiguous matrix (a Linear weight's W.t()) gets the transpose of a
// contiguous product, so the weight's own gradient comes out contiguous and
// everything that reads it (accumulation, an optimizer's fused update)
// reads it in order.
Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, const Tensor& mat1);
Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, const Tensor& mat2);

}  // namespace lz::autograd
