#include "autograd/formula_helpers.h"

#include <vector>

#include "core/factories.h"
#include "core/local_dispatch_key_set.h"
#include "core/ops_copy.h"
#include "core/ops_linalg.h"
#include "core/ops_reduction.h"
#include "core/ops_views.h"
#include "core/shape.h"

namespace lz::autograd {

Tensor sum_to(const Tensor& grad, IntArrayRef sizes) {
  if (grad.sizes() == sizes) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (d < lead || (sizes[d - lead] == 1 && grad.size(d) != 1)) dims.push_back(d);
  }
  Tensor summed = dims.empty() ? grad : grad.sum(IntArrayRef(dims), /*keepdim=*/true);
  if (lead > 0 || summed.sizes() != sizes) summed = summed.view(sizes);
  return summed;
}

Tensor restore_reduced_dims(const Tensor& t, int64_t input_dim, OptionalIntArrayRef dims, bool keepdim) {
  if (keepdim || input_dim == 0) return t;
  const std::optional<IntArrayRef> given = dims;
  std::vector<bool> reduced(static_cast<size_t>(input_dim), !given || given->empty());
  if (given) {
    for (int64_t d : *given) reduced[static_cast<size_t>(wrap_dim(d, input_dim, "backward"))] = true;
  }
  Tensor out = t;
  for (int64_t d = 0; d < input_dim; ++d) {
    if (reduced[static_cast<size_t>(d)]) out = out.unsqueeze(d);
  }
  return out;
}

Tensor expand_reduced(const Tensor& grad, IntArrayRef input_sizes, OptionalIntArrayRef dims, bool keepdim) {
  return restore_reduced_dims(grad, static_cast<int64_t>(input_sizes.size()), dims, keepdim).expand(input_sizes);
}

Tensor zeros_for(const Tensor& like, IntArrayRef sizes) {
  const TensorOptions options = TensorOptions(like.dtype()).device(like.device());
  if (!like.is_lazy()) return zeros(sizes, options);
  IncludeDispatchKeyGuard traced(DispatchKey::Lazy);
  return zeros(sizes, options);
}

Tensor scatter_into_zeros(const Tensor& grad, IntArrayRef input_sizes, IntArrayRef sizes, IntArrayRef strides,
                          int64_t offset) {
  return as_strided_scatter(zeros_for(grad, input_sizes), grad, sizes, strides, offset);
}

namespace {

// A 2-D matrix whose transpose is contiguous (and it is not itself).
bool is_transposed_contiguous(const Tensor& m) {
  return m.dim() == 2 && !m.is_contiguous() && m.stride(0) == 1 && m.stride(1) == m.size(0);
}

}  // namespace

Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, const Tensor& mat1) {
  // d mat1 = grad @ mat2^T, or (mat2 @ grad^T)^T to match mat1's layout.
  return is_transposed_contiguous(mat1) ? mm(mat2, grad.t()).t() : mm(grad, mat2.t());
}

Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, const Tensor& mat2) {
  // d mat2 = mat1^T @ grad, or (grad^T @ mat1)^T to match mat2's layout.
  return is_transposed_contiguous(mat2) ? mm(grad.t(), mat1).t() : mm(mat1.t(), grad);
}

}  // namespace lz::autograd
