#include "eager_kernels/meta/reduction_meta.h"

#include "core/error.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

absl::InlinedVector<bool, 6> reduction_mask(std::string_view op, int64_t ndim,
                                            std::optional<IntArrayRef> dims) {
  absl::InlinedVector<bool, 6> mask(ndim, false);
  if (!dims || dims->empty()) {
    mask.assign(ndim, true);
    return mask;
  }
  for (int64_t d : *dims) {
    const int64_t w = wrap_dim(d, ndim, op);
    if (ndim == 0) continue;  // dim 0 / -1 of a 0-dim tensor: nothing to reduce
    LZ_CHECK(!mask[w], ValueError, "[", op, "] dim: dim ", w,
             " appears multiple times in the list of dims ", shape_str(*dims));
    mask[w] = true;
  }
  return mask;
}

SizeVec reduced_sizes(IntArrayRef sizes, absl::Span<const bool> mask, bool keepdim) {
  SizeVec out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (!mask[d]) {
      out.push_back(sizes[d]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

TensorMeta sum_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  check_defined("sum", "self", self);
  const auto mask = reduction_mask("sum", self.dim(), dim);
  ScalarType out_dtype = self.dtype();
  if (dtype) {
    out_dtype = *dtype;
  } else if (is_integral(self.dtype(), /*include_bool=*/true)) {
    out_dtype = ScalarType::Long;
  }
  return TensorMeta{reduced_sizes(self.sizes(), mask, keepdim), out_dtype, self.device()};
}

}  // namespace lz::meta
