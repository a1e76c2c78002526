// Meta functions of the shape and data-movement operators: result sizes,
// dtype and device, and every argument check (index dtypes and ranks, dims,
// shapes that must agree). Index values are data: the kernels bound-check
// them.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// cat: PyTorch's legacy rule skips 1-D tensors of size 0 in the shape checks
// (they still take part in type promotion).
TensorMeta cat(TensorList tensors, int64_t dim);
TensorMeta stack(TensorList tensors, int64_t dim);
// The dim cat concatenates along, wrapped against the first tensor that is
// not a skipped legacy empty one (dim itself when every tensor is skipped).
int64_t cat_dim(TensorList tensors, int64_t dim);
// Whether cat skips `t` (a 1-D tensor of size 0).
bool cat_skips(const Tensor& t);

TensorMeta index_select(const Tensor& self, int64_t dim, const Tensor& index);
TensorMeta gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad);
TensorMeta scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
// scatter with src, summing every value written to one element into it.
TensorMeta scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
TensorMeta scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);

TensorMeta triu(const Tensor& self, int64_t diagonal);
TensorMeta tril(const Tensor& self, int64_t diagonal);
TensorMeta flip(const Tensor& self, IntArrayRef dims);
TensorMeta repeat(const Tensor& self, IntArrayRef repeats);
TensorMeta constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value);

// The views split / split_with_sizes / chunk produce: (start, length) along
// the wrapped dim, with PyTorch's rules (errors name `op`).
struct SplitPlan {
  int64_t dim = 0;
  std::vector<std::pair<int64_t, int64_t>> pieces;
};
SplitPlan split_plan(const Tensor& self, int64_t split_size, int64_t dim);
SplitPlan split_with_sizes_plan(const Tensor& self, IntArrayRef split_sizes, int64_t dim);
SplitPlan chunk_plan(const Tensor& self, int64_t chunks, int64_t dim);

}  // namespace lz::meta
