#include "autograd/formula_helpers.h"

#include <vector>

#include "core/factories.h"
#include "core/local_dispatch_key_set.h"
#include "core/ops_copy.h"
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

}  // namespace lz::autograd
