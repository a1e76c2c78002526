// Meta functions of the reductions and the shared dim-list rules.
#pragma once

#include <optional>
#include <string_view>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// Which dims of an ndim-D tensor `dims` reduces: all of them when dims is
// absent or empty. IndexError for a dim out of range, ValueError for a repeat.
absl::InlinedVector<bool, 6> reduction_mask(std::string_view op, int64_t ndim,
                                            std::optional<IntArrayRef> dims);
// Sizes after reducing the masked dims (kept as 1 with keepdim).
SizeVec reduced_sizes(IntArrayRef sizes, absl::Span<const bool> mask, bool keepdim);

// sum: int64 for integral/bool inputs unless dtype is given.
TensorMeta sum_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   std::optional<ScalarType> dtype);

}  // namespace lz::meta
