#include "eager_kernels/meta/reduction_meta.h"

#include <cmath>

#include "core/error.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

namespace {

using Mask = absl::InlinedVector<bool, 6>;

bool is_float_dtype(ScalarType t) { return is_floating_point(t); }

// The mask of a single dim (wrapped; nothing for a 0-dim tensor).
Mask single_dim_mask(std::string_view op, int64_t ndim, int64_t dim) {
  Mask mask(static_cast<size_t>(ndim), false);
  const int64_t w = wrap_dim(dim, ndim, op);
  if (ndim > 0) mask[static_cast<size_t>(w)] = true;
  return mask;
}

// Reductions without an identity (max, min, argmax, ...) cannot reduce an
// empty group: over all dims of an empty tensor (ValueError, as PyTorch's
// "Expected reduction dim to be specified") or over a dim of size 0
// (IndexError, as PyTorch's "Expected reduction dim 0 to have non-zero size").
void check_no_empty_groups(std::string_view op, const Tensor& self, const Mask& mask,
                           bool all_dims) {
  if (self.numel() != 0) return;
  LZ_CHECK(!all_dims, ValueError, "[", op, "] self: cannot reduce the empty tensor of shape ",
           shape_str(self.sizes()), " over all its dims: the operation has no identity (pass a dim)");
  for (int64_t d = 0; d < self.dim(); ++d) {
    LZ_CHECK(!mask[static_cast<size_t>(d)] || self.size(d) != 0, IndexError, "[", op, "] dim: cannot reduce over dim ", d,
             " of size 0 (shape ", shape_str(self.sizes()), "): the operation has no identity");
  }
}

// sum/prod result dtype: int64 for integral/bool inputs unless dtype is given.
ScalarType sum_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), /*include_bool=*/true) ? ScalarType::Long : self.dtype();
}

ScalarType mean_dtype(std::string_view op, const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) {
    LZ_CHECK(is_float_dtype(*dtype), TypeError, "[", op,
             "] dtype: the result must have a floating point dtype, got ", *dtype);
    return *dtype;
  }
  LZ_CHECK(is_float_dtype(self.dtype()), TypeError, "[", op,
           "] self: could not infer the output dtype: the input dtype must be floating point, got ",
           self.dtype(), " (pass a floating point dtype)");
  return self.dtype();
}

void check_floating(std::string_view op, const Tensor& self) {
  LZ_CHECK(is_float_dtype(self.dtype()), TypeError, "[", op,
           "] self: only floating point dtypes are supported, got ", self.dtype());
}

TensorMeta reduced(const Tensor& self, const Mask& mask, bool keepdim, ScalarType dtype) {
  return TensorMeta{reduced_sizes(self.sizes(), mask, keepdim), dtype, self.device()};
}

TensorMeta scalar_result(const Tensor& self, ScalarType dtype) {
  return TensorMeta{SizeVec{}, dtype, self.device()};
}

TensorMeta minmax_all(std::string_view op, const Tensor& self) {
  check_defined(op, "self", self);
  check_no_empty_groups(op, self, Mask(static_cast<size_t>(self.dim()), true), true);
  return scalar_result(self, self.dtype());
}

MetaList minmax_dim(std::string_view op, const Tensor& self, int64_t dim, bool keepdim) {
  check_defined(op, "self", self);
  const Mask mask = single_dim_mask(op, self.dim(), dim);
  check_no_empty_groups(op, self, mask, false);
  const SizeVec sizes = reduced_sizes(self.sizes(), mask, keepdim);
  return MetaList{TensorMeta{sizes, self.dtype(), self.device()},
                  TensorMeta{sizes, ScalarType::Long, self.device()}};
}

TensorMeta aminmax(std::string_view op, const Tensor& self, IntArrayRef dim, bool keepdim) {
  check_defined(op, "self", self);
  const Mask mask = reduction_mask(op, self.dim(), dim);
  check_no_empty_groups(op, self, mask, dim.empty());
  return reduced(self, mask, keepdim, self.dtype());
}

TensorMeta arg_minmax(std::string_view op, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  check_defined(op, "self", self);
  LZ_CHECK(self.dtype() != ScalarType::Bool, TypeError, "[", op,
           "] self: not implemented for dtype bool");
  const Mask mask = dim ? single_dim_mask(op, self.dim(), *dim)
                        : Mask(static_cast<size_t>(self.dim()), true);
  check_no_empty_groups(op, self, mask, !dim);
  return reduced(self, mask, keepdim, ScalarType::Long);
}

TensorMeta var_like(std::string_view op, const Tensor& self, std::optional<IntArrayRef> dim,
                    const std::optional<Scalar>& correction, bool keepdim) {
  check_defined(op, "self", self);
  check_floating(op, self);
  const Mask mask = reduction_mask(op, self.dim(), dim);
  if (correction) {
    const double c = correction->to_double();
    LZ_CHECK(std::isfinite(c), ValueError, "[", op, "] correction: must be a finite number, got ", c);
  }
  return reduced(self, mask, keepdim, self.dtype());
}

TensorMeta norm_common(const Tensor& self, double p, const Mask& mask, bool keepdim, bool all) {
  check_defined("norm", "self", self);
  check_floating("norm", self);
  LZ_CHECK(!std::isnan(p), ValueError, "[norm] p: must be a number, got nan");
  if (self.numel() == 0 && (p < 0 || p == INFINITY)) {
    LZ_CHECK(!all, ValueError, "[norm] p: cannot compute the ", p, " norm of the empty tensor of shape ",
             shape_str(self.sizes()), " over all its dims: the operation has no identity");
    for (int64_t d = 0; d < self.dim(); ++d) {
      LZ_CHECK(!mask[static_cast<size_t>(d)] || self.size(d) != 0, ValueError, "[norm] p: cannot compute the ",
               p, " norm over dim ", d, " of size 0 (shape ", shape_str(self.sizes()),
               "): the operation has no identity");
    }
  }
  return reduced(self, mask, keepdim, self.dtype());
}

ScalarType logical_dtype(const Tensor& self) {
  return self.dtype() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
}

}  // namespace

Mask reduction_mask(std::string_view op, int64_t ndim, std::optional<IntArrayRef> dims) {
  Mask mask(static_cast<size_t>(ndim), false);
  if (!dims || dims->empty()) {
    mask.assign(static_cast<size_t>(ndim), true);
    return mask;
  }
  for (int64_t d : *dims) {
    const int64_t w = wrap_dim(d, ndim, op);
    if (ndim == 0) continue;  // dim 0 / -1 of a 0-dim tensor: nothing to reduce
    LZ_CHECK(!mask[static_cast<size_t>(w)], ValueError, "[", op, "] dim: dim ", w,
             " appears multiple times in the list of dims ", shape_str(*dims));
    mask[static_cast<size_t>(w)] = true;
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

TensorMeta sum_all(const Tensor& self, std::optional<ScalarType> dtype) {
  check_defined("sum", "self", self);
  return scalar_result(self, sum_dtype(self, dtype));
}

TensorMeta sum_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  check_defined("sum", "self", self);
  return reduced(self, reduction_mask("sum", self.dim(), dim), keepdim, sum_dtype(self, dtype));
}

TensorMeta prod_all(const Tensor& self, std::optional<ScalarType> dtype) {
  check_defined("prod", "self", self);
  return scalar_result(self, sum_dtype(self, dtype));
}

TensorMeta prod_dim(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  check_defined("prod", "self", self);
  return reduced(self, single_dim_mask("prod", self.dim(), dim), keepdim, sum_dtype(self, dtype));
}

TensorMeta mean_all(const Tensor& self, std::optional<ScalarType> dtype) {
  check_defined("mean", "self", self);
  return scalar_result(self, mean_dtype("mean", self, dtype));
}

TensorMeta mean_dim(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                    std::optional<ScalarType> dtype) {
  check_defined("mean", "self", self);
  const ScalarType out = mean_dtype("mean", self, dtype);
  return reduced(self, reduction_mask("mean", self.dim(), dim), keepdim, out);
}

TensorMeta max_all(const Tensor& self) { return minmax_all("max", self); }
TensorMeta min_all(const Tensor& self) { return minmax_all("min", self); }
MetaList max_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim("max", self, dim, keepdim);
}
MetaList min_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim("min", self, dim, keepdim);
}
TensorMeta amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return aminmax("amax", self, dim, keepdim);
}
TensorMeta amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return aminmax("amin", self, dim, keepdim);
}
TensorMeta argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_minmax("argmax", self, dim, keepdim);
}
TensorMeta argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_minmax("argmin", self, dim, keepdim);
}

TensorMeta var(const Tensor& self, std::optional<IntArrayRef> dim,
               const std::optional<Scalar>& correction, bool keepdim) {
  return var_like("var", self, dim, correction, keepdim);
}
TensorMeta std_(const Tensor& self, std::optional<IntArrayRef> dim,
                const std::optional<Scalar>& correction, bool keepdim) {
  return var_like("std", self, dim, correction, keepdim);
}

TensorMeta norm_dim(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim) {
  check_defined("norm", "self", self);
  const Mask mask = reduction_mask("norm", self.dim(), dim);
  return norm_common(self, p ? p->to_double() : 2.0, mask, keepdim, dim.empty());
}

TensorMeta norm_scalar(const Tensor& self, const Scalar& p) {
  check_defined("norm", "self", self);
  return norm_common(self, p.to_double(), Mask(static_cast<size_t>(self.dim()), true), false, true);
}

TensorMeta logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  check_defined("logsumexp", "self", self);
  const Mask mask = reduction_mask("logsumexp", self.dim(), dim);
  const ScalarType out = is_float_dtype(self.dtype()) ? self.dtype() : default_float_dtype();
  return reduced(self, mask, keepdim, out);
}

TensorMeta all_all(const Tensor& self) {
  check_defined("all", "self", self);
  return scalar_result(self, logical_dtype(self));
}
TensorMeta all_dim(const Tensor& self, int64_t dim, bool keepdim) {
  check_defined("all", "self", self);
  return reduced(self, single_dim_mask("all", self.dim(), dim), keepdim, logical_dtype(self));
}
TensorMeta any_all(const Tensor& self) {
  check_defined("any", "self", self);
  return scalar_result(self, logical_dtype(self));
}
TensorMeta any_dim(const Tensor& self, int64_t dim, bool keepdim) {
  check_defined("any", "self", self);
  return reduced(self, single_dim_mask("any", self.dim(), dim), keepdim, logical_dtype(self));
}

TensorMeta cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  check_defined("cumsum", "self", self);
  wrap_dim(dim, self.dim(), "cumsum");
  return TensorMeta{SizeVec(self.sizes().begin(), self.sizes().end()), sum_dtype(self, dtype),
                    self.device()};
}

}  // namespace lz::meta
