// Meta functions of the reductions and scans, and the shared dim-list rules.
// Every argument check of these operators lives here (the Lazy key runs
// metas to trace): "[op] arg: ..." messages with typed errors.
#pragma once

#include <optional>
#include <string_view>

#include "core/scalar.h"
#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// Which dims of an ndim-D tensor `dims` reduces: all of them when dims is
// absent or empty. IndexError for a dim out of range, ValueError for a repeat.
absl::InlinedVector<bool, 6> reduction_mask(std::string_view op, int64_t ndim,
                                            std::optional<IntArrayRef> dims);
// Sizes after reducing the masked dims (kept as 1 with keepdim).
SizeVec reduced_sizes(IntArrayRef sizes, absl::Span<const bool> mask, bool keepdim);

// sum / prod: int64 for integral/bool inputs unless dtype is given.
TensorMeta sum_all(const Tensor& self, std::optional<ScalarType> dtype);
TensorMeta sum_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   std::optional<ScalarType> dtype);
TensorMeta prod_all(const Tensor& self, std::optional<ScalarType> dtype);
TensorMeta prod_dim(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype);
// mean: floating results only; TypeError for an integral/bool input without
// a floating dtype, or a non-floating dtype.
TensorMeta mean_all(const Tensor& self, std::optional<ScalarType> dtype);
TensorMeta mean_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype);

// max()/min(): 0-dim, self's dtype; ValueError for an empty tensor.
TensorMeta max_all(const Tensor& self);
TensorMeta min_all(const Tensor& self);
// (values: self's dtype, indices: int64); IndexError for a size-0 dim.
MetaList max_dim(const Tensor& self, int64_t dim, bool keepdim);
MetaList min_dim(const Tensor& self, int64_t dim, bool keepdim);
TensorMeta amax(const Tensor& self, IntArrayRef dim, bool keepdim);
TensorMeta amin(const Tensor& self, IntArrayRef dim, bool keepdim);
// int64 indices; TypeError for bool (as PyTorch's CPU kernels).
TensorMeta argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim);
TensorMeta argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim);

// var / std / norm: floating inputs only, result in the input dtype.
TensorMeta var(const Tensor& self, std::optional<IntArrayRef> dim,
               const std::optional<Scalar>& correction, bool keepdim);
TensorMeta std_(const Tensor& self, std::optional<IntArrayRef> dim,
                const std::optional<Scalar>& correction, bool keepdim);
TensorMeta norm_dim(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim);
TensorMeta norm_scalar(const Tensor& self, const Scalar& p);
// Integral/bool inputs give float32.
TensorMeta logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim);

// bool results (uint8 for uint8 inputs, as PyTorch).
TensorMeta all_all(const Tensor& self);
TensorMeta all_dim(const Tensor& self, int64_t dim, bool keepdim);
TensorMeta any_all(const Tensor& self);
TensorMeta any_dim(const Tensor& self, int64_t dim, bool keepdim);

// self's sizes; int64 for integral/bool inputs unless dtype is given.
TensorMeta cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);

}  // namespace lz::meta
