#include "eager_kernels/meta/nn_meta.h"

#include <sstream>

#include "core/error.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

namespace {

TensorMeta softmax_like(std::string_view op, const Tensor& self, int64_t dim,
                        std::optional<ScalarType> dtype) {
  check_defined(op, "self", self);
  wrap_dim(dim, self.dim(), op);
  if (dtype) {
    LZ_CHECK(is_floating_point(*dtype), TypeError, "[", op, "] dtype: ", op,
             " is only implemented for floating dtypes, got dtype=", *dtype);
  } else {
    LZ_CHECK(is_floating_point(self.dtype()), TypeError, "[", op, "] self: ", op,
             " is only implemented for floating dtypes, got ", self.dtype(),
             " (pass dtype= to compute in a floating type)");
  }
  return TensorMeta{SizeVec(self.sizes().begin(), self.sizes().end()), dtype.value_or(self.dtype()),
                    self.device()};
}

}  // namespace

TensorMeta softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_like("softmax", self, dim, dtype);
}

TensorMeta log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_like("log_softmax", self, dim, dtype);
}

NormRows check_norm_shapes(std::string_view op, const Tensor& input, IntArrayRef normalized_shape,
                           const std::optional<Tensor>& weight, const std::optional<Tensor>& bias) {
  check_defined(op, "input", input);
  const int64_t nd = static_cast<int64_t>(normalized_shape.size());
  LZ_CHECK(nd >= 1, ValueError, "[", op,
           "] normalized_shape: expected normalized_shape to be at least 1-dimensional, i.e., "
           "containing at least one element, but got normalized_shape = ",
           shape_str(normalized_shape));
  auto check_param = [&](std::string_view name, const std::optional<Tensor>& p) {
    if (!p || !p->defined()) return;
    LZ_CHECK(p->sizes() == normalized_shape, ShapeError, "[", op, "] ", name, ": expected ", name,
             " to be of same shape as normalized_shape, but got ", name, " of shape ",
             shape_str(p->sizes()), " and normalized_shape = ", shape_str(normalized_shape));
    check_same_device(op, "input", input, name, *p);
  };
  check_param("weight", weight);
  check_param("bias", bias);
  const int64_t in_nd = input.dim();
  if (in_nd < nd || input.sizes().subspan(static_cast<size_t>(in_nd - nd)) != normalized_shape) {
    std::ostringstream expected;
    expected << "[*";
    for (int64_t s : normalized_shape) expected << ", " << s;
    expected << "]";
    LZ_CHECK(false, ShapeError, "[", op, "] input: given normalized_shape=",
             shape_str(normalized_shape), ", expected input with shape ", expected.str(),
             ", but got input of size ", shape_str(input.sizes()));
  }
  int64_t rows = 1, row_size = 1;
  for (int64_t d = 0; d < in_nd - nd; ++d) rows *= input.size(d);
  for (int64_t s : normalized_shape) row_size *= s;
  return NormRows{rows, row_size};
}

TensorMeta layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                      const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                      double eps, bool cudnn_enable) {
  check_norm_shapes("layer_norm", input, normalized_shape, weight, bias);
  const ScalarType dt = input.dtype();
  LZ_CHECK(is_floating_point(dt), TypeError,
           "[layer_norm] input: layer_norm is only implemented for floating dtypes, got ", dt);
  // Parameters have the input's dtype, or float32 for a 16-bit input (mixed).
  const bool reduced = dt == ScalarType::Half || dt == ScalarType::BFloat16;
  auto check_dtype = [&](std::string_view name, const std::optional<Tensor>& p) {
    if (!p || !p->defined()) return;
    LZ_CHECK(p->dtype() == dt || (reduced && p->dtype() == ScalarType::Float), TypeError,
             "[layer_norm] ", name, ": expected dtype ", dt,
             reduced ? " (or float32)" : "", " like the input, got ", p->dtype());
  };
  check_dtype("weight", weight);
  check_dtype("bias", bias);
  return meta_of(input);
}

TensorMeta rms_norm(const Tensor& input, IntArrayRef normalized_shape,
                    const std::optional<Tensor>& weight, std::optional<double> eps) {
  check_norm_shapes("rms_norm", input, normalized_shape, weight, std::nullopt);
  LZ_CHECK(is_floating_point(input.dtype()), TypeError,
           "[rms_norm] input: rms_norm is only implemented for floating dtypes, got ", input.dtype());
  return meta_of(input);
}

void check_dropout_probability(std::string_view op, double p) {
  LZ_CHECK(p >= 0 && p <= 1, ValueError, "[", op,
           "] p: dropout probability has to be between 0 and 1, but got ", p);
}

MetaList native_dropout(const Tensor& input, double p, std::optional<bool> train) {
  check_defined("native_dropout", "input", input);
  check_dropout_probability("native_dropout", p);
  LZ_CHECK(is_floating_point(input.dtype()), TypeError,
           "[native_dropout] input: dropout is only implemented for floating dtypes, got ",
           input.dtype());
  TensorMeta mask = meta_of(input);
  mask.dtype = ScalarType::Bool;
  return MetaList{meta_of(input), mask};
}

void check_reduction(std::string_view op, int64_t reduction) {
  LZ_CHECK(reduction >= 0 && reduction <= 2, ValueError, "[", op, "] reduction: ", reduction,
           " is not a valid value for reduction (0 = none, 1 = mean, 2 = sum)");
}

MetaList nll_loss_forward(const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight, int64_t reduction,
                          int64_t ignore_index) {
  constexpr std::string_view op = "nll_loss";
  check_defined(op, "self", self);
  check_defined(op, "target", target);
  check_reduction(op, reduction);
  LZ_CHECK(self.dim() >= 1 && self.dim() <= 2, ShapeError,
           "[nll_loss] self: input tensor should be 1D or 2D, got shape ", shape_str(self.sizes()));
  LZ_CHECK(target.dim() <= 1, ShapeError,
           "[nll_loss] target: 0D or 1D target tensor expected, multi-target not supported (got "
           "shape ",
           shape_str(target.sizes()), ")");
  const bool no_batch = self.dim() == 1;
  LZ_CHECK(no_batch ? target.dim() == 0 : (target.dim() == 1 && self.size(0) == target.size(0)),
           ShapeError, "[nll_loss] size mismatch (got input: ", shape_str(self.sizes()),
           ", target: ", shape_str(target.sizes()), ")");
  LZ_CHECK(is_floating_point(self.dtype()), TypeError,
           "[nll_loss] self: expected a floating point input (log-probabilities), got ",
           self.dtype());
  LZ_CHECK(target.dtype() == ScalarType::Long || target.dtype() == ScalarType::Byte, TypeError,
           "[nll_loss] target: expected class indices of dtype int64 (or uint8), got ",
           target.dtype());
  check_same_device(op, "input", self, "target", target);
  const int64_t n_classes = self.size(self.dim() - 1);
  if (weight && weight->defined()) {
    LZ_CHECK(weight->dim() == 1 && weight->numel() == n_classes, ShapeError,
             "[nll_loss] weight: weight tensor should be defined either for all ", n_classes,
             " classes or no classes but got weight tensor of shape: ", shape_str(weight->sizes()));
    LZ_CHECK(weight->dtype() == self.dtype(), TypeError, "[nll_loss] weight: expected dtype ",
             self.dtype(), " like self, got ", weight->dtype());
    check_same_device(op, "input", self, "weight", *weight);
  }
  SizeVec out_sizes;
  if (reduction == 0 && !no_batch) out_sizes.push_back(self.size(0));
  return MetaList{TensorMeta{out_sizes, self.dtype(), self.device()},
                  TensorMeta{{}, self.dtype(), self.device()}};
}

}  // namespace lz::meta
