// Neural-network operators. softmax, log_softmax, layer_norm and rms_norm have
// a dedicated CPU kernel (CPU key) AND a composite of primitive operators
// (every other key, e.g. Lazy): a lazy trace sees amax/exp/sum/div/mean/rsqrt
// ... that the fuser can fuse, while eager CPU calls take the fast kernel.
// native_dropout and nll_loss_forward are kernels; dropout, linear, nll_loss,
// nll_loss_nd and cross_entropy_loss are composites, as in PyTorch.
#include <cmath>
#include <limits>

#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "core/ops_linalg.h"
#include "core/ops_nn.h"
#include "core/ops_reduction.h"
#include "core/ops_shape.h"
#include "core/ops_unary.h"
#include "core/ops_views.h"
#include "core/shape.h"
#include "core/structured.h"
#include "eager_kernels/cpu/nn_kernels.h"
#include "eager_kernels/meta/meta_utils.h"
#include "eager_kernels/meta/nn_meta.h"

namespace lz {

namespace {

// ---- Primitives the composites are made of, each one operator called
// through the dispatcher (so each is one node of a lazy trace). ----------------

Tensor amax_keepdim(const Tensor& x, int64_t dim) {
  const int64_t dims[] = {dim};
  return lz::amax(x, dims, true);
}
Tensor mean_keepdim(const Tensor& x, IntArrayRef dims) { return lz::mean(x, dims, true); }

// The last `n` dims (-1, -2, ...), the dims a normalisation reduces.
SizeVec last_dims(size_t n) {
  SizeVec dims;
  for (size_t i = 0; i < n; ++i) dims.push_back(-1 - static_cast<int64_t>(i));
  return dims;
}

// ---- softmax / log_softmax --------------------------------------------------

// As PyTorch's decomposition: 16-bit inputs compute in float32 and round once.
Tensor softmax_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const ScalarType result = meta::softmax(self, dim, dtype).dtype;
  const Tensor x = self.to(meta::opmath_dtype(result));
  const int64_t d[] = {dim};
  if (x.numel() == 0) return exp(x).to(result);  // amax has no identity for an empty dim
  const Tensor e = exp(x - amax_keepdim(x, dim));
  return (e / lz::sum(e, d, true)).to(result);
}

Tensor log_softmax_composite(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const ScalarType result = meta::log_softmax(self, dim, dtype).dtype;
  const Tensor x = self.to(meta::opmath_dtype(result));
  const int64_t d[] = {dim};
  if (x.numel() == 0) return exp(x).to(result);
  // x - (max + log(sum(exp(x - max)))): the one full-size value read
  // outside the row reductions is the result, so a consumer reading a few
  // of its elements (nll_loss's gather) recomputes those and nothing of
  // [N, C] is stored. (A row holding +inf or only -inf gives NaN, as the
  // CPU kernel's (x - max) - log(sum) does.)
  const Tensor max = amax_keepdim(x, dim);
  return (x - (max + lz::log(lz::sum(exp(x - max), d, true)))).to(result);
}

// ---- layer_norm / rms_norm ---------------------------------------------------

Tensor layer_norm_composite(const Tensor& input, IntArrayRef normalized_shape,
                            const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                            double eps, bool cudnn_enable) {
  meta::layer_norm(input, normalized_shape, weight, bias, eps, cudnn_enable);
  const SizeVec dims = last_dims(normalized_shape.size());
  const Tensor x = input.to(meta::opmath_dtype(input.dtype()));
  const Tensor centered = x - mean_keepdim(x, dims);
  const Tensor var = mean_keepdim(centered * centered, dims);
  Tensor y = centered * lz::rsqrt(var + eps);
  if (weight && weight->defined()) y = y * *weight;
  if (bias && bias->defined()) y = y + *bias;
  return y.to(input.dtype());
}

Tensor rms_norm_composite(const Tensor& input, IntArrayRef normalized_shape,
                          const std::optional<Tensor>& weight, std::optional<double> eps) {
  meta::rms_norm(input, normalized_shape, weight, eps);
  const ScalarType compute = meta::opmath_dtype(input.dtype());
  const double e = eps ? *eps
                       : compute == ScalarType::Double
                             ? std::numeric_limits<double>::epsilon()
                             : static_cast<double>(std::numeric_limits<float>::epsilon());
  const SizeVec dims = last_dims(normalized_shape.size());
  const Tensor x = input.to(compute);
  Tensor y = x * lz::rsqrt(mean_keepdim(x * x, dims) + e);
  if (weight && weight->defined()) y = y * *weight;
  return y.to(input.dtype());
}

// ---- dropout -------------------------------------------------------------------

Tensor dropout_composite(const Tensor& input, double p, bool train) {
  meta::check_defined("dropout", "input", input);
  meta::check_dropout_probability("dropout", p);
  if (!train || p == 0 || input.numel() == 0) return input;
  return std::get<0>(native_dropout(input, p, true));
}

Tensor dropout_inplace_composite(const Tensor& self, double p, bool train) {
  meta::check_defined("dropout_", "self", self);
  meta::check_dropout_probability("dropout_", p);
  if (!train || p == 0 || self.numel() == 0) return self;
  detail::copy_into(self, std::get<0>(native_dropout(self, p, true)));
  return self;
}

// ---- linear ----------------------------------------------------------------------

Tensor linear_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  meta::check_defined("linear", "input", input);
  meta::check_defined("linear", "weight", weight);
  const bool has_bias = bias && bias->defined();
  if (has_bias && input.dim() == 2 && weight.dim() == 2) return addmm(*bias, input, weight.t());
  if (has_bias && input.dim() >= 3 && weight.dim() == 2 && input.is_contiguous() &&
      bias->dim() == 1) {
    // Fold the leading dims into the rows of one fused addmm.
    SizeVec out_shape(input.sizes().begin(), input.sizes().end() - 1);
    int64_t rows = 1;
    for (int64_t s : out_shape) rows *= s;
    const Tensor flat = input.reshape({rows, input.size(input.dim() - 1)});
    out_shape.push_back(weight.size(0));
    return addmm(*bias, flat, weight.t()).view(out_shape);
  }
  Tensor output = matmul(input, weight.t());
  if (has_bias) output.add_(*bias);
  return output;
}

Tensor linear_out_composite(const Tensor& input, const Tensor& weight,
                            const std::optional<Tensor>& bias, const Tensor& out) {
  const Tensor result = linear(input, weight, bias);
  detail::prepare_out("linear.out", out, meta_of(result));
  detail::copy_into(out, result);
  return out;
}

// ---- losses -----------------------------------------------------------------------

Tensor nll_loss_composite(const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight, int64_t reduction,
                          int64_t ignore_index) {
  return std::get<0>(nll_loss_forward(self, target, weight, reduction, ignore_index));
}

// [N, C, d1, ...] with target [N, d1, ...]: rows of C class scores, [-1, C],
// and the matching flat targets.
std::pair<Tensor, Tensor> flatten_classes(std::string_view op, const Tensor& self,
                                          const Tensor& target) {
  SizeVec expected{self.size(0)};
  for (int64_t d = 2; d < self.dim(); ++d) expected.push_back(self.size(d));
  LZ_CHECK(target.sizes() == IntArrayRef(expected), ShapeError, "[", op,
           "] target: expected target size ", shape_str(expected), ", got ",
           shape_str(target.sizes()), " (input ", shape_str(self.sizes()), ")");
  int64_t rows = 1;
  for (int64_t s : expected) rows *= s;
  SizeVec perm{0};
  for (int64_t d = 2; d < self.dim(); ++d) perm.push_back(d);
  perm.push_back(1);
  const Tensor rows_of_classes = self.dim() == 2 ? self : self.permute(perm).reshape({rows, self.size(1)});
  return {rows_of_classes, target.reshape({rows})};
}

Tensor nll_loss_nd_composite(const Tensor& self, const Tensor& target,
                             const std::optional<Tensor>& weight, int64_t reduction,
                             int64_t ignore_index) {
  meta::check_defined("nll_loss_nd", "self", self);
  meta::check_defined("nll_loss_nd", "target", target);
  LZ_CHECK(self.dim() >= 1, ValueError, "[nll_loss_nd] self: Expected 1 or more dimensions (got ",
           self.dim(), ")");
  if (self.dim() != 1) {
    LZ_CHECK(target.dim() >= 1 && self.size(0) == target.size(0), ValueError,
             "[nll_loss_nd] target: Expected input batch_size (", self.size(0),
             ") to match target batch_size (", target.dim() >= 1 ? target.size(0) : 0,
             "), target shape ", shape_str(target.sizes()));
  }
  if (self.dim() <= 2) return nll_loss(self, target, weight, reduction, ignore_index);
  meta::check_reduction("nll_loss_nd", reduction);
  const auto [rows, flat_target] = flatten_classes("nll_loss_nd", self, target);
  const Tensor loss = nll_loss(rows, flat_target, weight, reduction, ignore_index);
  return reduction == 0 ? loss.view(target.sizes()) : loss;
}

// Class probabilities (target has self's shape).
Tensor cross_entropy_prob_target(const Tensor& self, const Tensor& target,
                                 const std::optional<Tensor>& weight, int64_t reduction,
                                 double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  const Tensor lsm = log_softmax(self, class_dim, self.dtype());
  const Tensor tgt =
      label_smoothing > 0 ? target * (1 - label_smoothing) + label_smoothing / static_cast<double>(n_classes)
                          : target;
  Tensor prod = lsm * tgt;
  if (weight && weight->defined()) {
    SizeVec shape(static_cast<size_t>(self.dim()), 1);
    shape[static_cast<size_t>(class_dim)] = n_classes;
    prod = prod * weight->view(shape);
  }
  const int64_t cd[] = {class_dim};
  switch (reduction) {
    case 0: return neg(lz::sum(prod, cd, false));
    case 2: return neg(sum(prod));
    default:
      if (self.numel() == 0) return neg(sum(prod)) * std::numeric_limits<double>::quiet_NaN();
      return neg(sum(prod)) / (self.numel() / n_classes);
  }
}

// Class indices with label smoothing: (1 - ls) * nll + ls / C * (the loss
// against the uniform distribution, weighted and reduced like nll_loss).
Tensor cross_entropy_label_smoothing(const Tensor& self, const Tensor& target,
                                     const std::optional<Tensor>& weight, int64_t reduction,
                                     int64_t ignore_index, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  const Tensor lsm = log_softmax(self, class_dim, self.dtype());
  Tensor rows, flat_target;
  if (self.dim() == 1) {
    LZ_CHECK(target.dim() == 0, ShapeError,
             "[cross_entropy] target: expected a 0-dim class index for a 1-D input, got shape ",
             shape_str(target.sizes()));
    rows = lsm.unsqueeze(0);
    flat_target = target.reshape({1});
  } else {
    std::tie(rows, flat_target) = flatten_classes("cross_entropy", lsm, target);
  }
  const auto [nll, total_weight] = nll_loss_forward(rows, flat_target, weight, reduction, ignore_index);
  const Tensor weighted = weight && weight->defined() ? rows * weight->view({1, n_classes}) : rows;
  const int64_t one[] = {1};
  const Tensor smooth =
      lz::masked_fill(neg(lz::sum(weighted, one, false)), lz::eq(flat_target, ignore_index), 0);
  // The reductions add in float32 for 16-bit inputs: a float16 sum over many
  // samples would overflow long before the (mean) loss does.
  const ScalarType acc = meta::opmath_dtype(self.dtype());
  Tensor ret;
  switch (reduction) {
    case 0: ret = smooth.view(target.sizes()); break;
    case 2: ret = sum(smooth, acc); break;
    default: {
      // The total weight of the targets not ignored (their count without weights).
      const auto [unused, denominator] =
          nll_loss_forward(rows, flat_target, weight, /*mean*/ 1, ignore_index);
      ret = sum(smooth, acc) / denominator;
    }
  }
  const Tensor nll_out = reduction == 0 ? nll.view(target.sizes()) : nll;
  return (nll_out * (1 - label_smoothing) + ret * (label_smoothing / static_cast<double>(n_classes)))
      .to(self.dtype());
}

// index_select of rows, as PyTorch's. Rows equal to padding_idx are read
// through a detached copy, so their gradient stays zero.
Tensor embedding_composite(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                           bool scale_grad_by_freq, bool sparse) {
  meta::check_defined("embedding", "weight", weight);
  meta::check_defined("embedding", "indices", indices);
  LZ_CHECK(weight.dim() == 2, ShapeError, "[embedding] weight: expected a 2-D weight, got shape ",
           shape_str(weight.sizes()));
  LZ_CHECK(indices.dtype() == ScalarType::Long || indices.dtype() == ScalarType::Int, TypeError,
           "[embedding] indices: expected an int64 or int32 tensor, got ", indices.dtype());
  LZ_CHECK(!scale_grad_by_freq && !sparse, NotImplementedError,
           "[embedding] scale_grad_by_freq, sparse: only false is supported");
  const int64_t rows = weight.size(0);
  LZ_CHECK(padding_idx < rows, IndexError, "[embedding] padding_idx: ", padding_idx,
           " is out of range for ", rows, " embeddings");
  const Tensor flat = indices.reshape({-1});
  Tensor picked = index_select(weight, 0, flat);
  if (padding_idx >= 0) {
    picked = where((flat == padding_idx).unsqueeze(1), picked.detach(), picked);
  }
  std::vector<int64_t> sizes = indices.sizes().vec();
  sizes.push_back(weight.size(1));
  return picked.view(sizes);
}

Tensor cross_entropy_loss_composite(const Tensor& self, const Tensor& target,
                                    const std::optional<Tensor>& weight, int64_t reduction,
                                    int64_t ignore_index, double label_smoothing) {
  meta::check_defined("cross_entropy", "self", self);
  meta::check_defined("cross_entropy", "target", target);
  meta::check_reduction("cross_entropy", reduction);
  LZ_CHECK(self.dim() >= 1, ShapeError,
           "[cross_entropy] self: expected class scores of at least 1 dimension, got a 0-D tensor");
  LZ_CHECK(label_smoothing <= 1.0, ValueError,
           "[cross_entropy] label_smoothing: label_smoothing must be between 0.0 and 1.0. Got: ",
           label_smoothing);
  LZ_CHECK(is_floating_point(self.dtype()), TypeError,
           "[cross_entropy] self: expected floating point class scores, got ", self.dtype());
  if (self.sizes() == target.sizes()) {
    LZ_CHECK(is_floating_point(target.dtype()), TypeError,
             "[cross_entropy] target: expected floating point type for target with class "
             "probabilities, got ",
             target.dtype());
    LZ_CHECK(ignore_index < 0, ValueError,
             "[cross_entropy] ignore_index: ignore_index is not supported for floating point target");
    if (weight && weight->defined()) {
      const int64_t n_classes = self.size(self.dim() == 1 ? 0 : 1);
      LZ_CHECK(weight->dim() == 1 && weight->numel() == n_classes, ShapeError,
               "[cross_entropy] weight: weight tensor should be defined either for all ", n_classes,
               " classes or no classes but got weight tensor of shape: ", shape_str(weight->sizes()));
    }
    return cross_entropy_prob_target(self, target, weight, reduction, label_smoothing);
  }
  if (label_smoothing > 0) {
    return cross_entropy_label_smoothing(self, target, weight, reduction, ignore_index,
                                         label_smoothing);
  }
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  return nll_loss_nd(log_softmax(self, class_dim, self.dtype()), target, weight, reduction,
                     ignore_index);
}

}  // namespace

LZ_LIBRARY(nn_ops) {
  constexpr DispatchKey kCpu = DispatchKey::CPU;
  lib.def_structured<&meta::softmax>(OpId::softmax_int).impl<&cpu::softmax_impl>(kCpu).composite(&softmax_composite);
  lib.def_structured<&meta::log_softmax>(OpId::log_softmax_int)
      .impl<&cpu::log_softmax_impl>(kCpu)
      .composite(&log_softmax_composite);
  lib.def_structured<&meta::layer_norm>(OpId::layer_norm)
      .impl<&cpu::layer_norm_impl>(kCpu)
      .composite(&layer_norm_composite);
  lib.def_structured<&meta::rms_norm>(OpId::rms_norm).impl<&cpu::rms_norm_impl>(kCpu).composite(&rms_norm_composite);

  // Every call's key set holds BackendSelect, and the dispatcher resolves a
  // key without a kernel of its own to the composite before any fallback:
  // BackendSelect would run the composite and hide the CPU kernel. An
  // explicit fallthrough passes it on to the backend (the CPU kernel for CPU
  // tensors); keys above it (Lazy) still get the composite.
  for (OpId id : {OpId::softmax_int, OpId::log_softmax_int, OpId::layer_norm, OpId::rms_norm}) {
    lib.impl_kernel(Dispatcher::singleton().find(id), DispatchKey::BackendSelect, KernelFunction::fallthrough());
  }

  lib.def(OpId::native_dropout).meta(&meta::native_dropout).kernel(kCpu, &cpu::native_dropout);
  lib.def(OpId::dropout).composite(&dropout_composite);
  lib.def(OpId::dropout_).composite(&dropout_inplace_composite);

  lib.def(OpId::linear).composite(&linear_composite);
  lib.def(OpId::linear_out).composite(&linear_out_composite);

  lib.def(OpId::nll_loss_forward).meta(&meta::nll_loss_forward).kernel(kCpu, &cpu::nll_loss_forward);
  lib.def(OpId::nll_loss).composite(&nll_loss_composite);
  lib.def(OpId::nll_loss_nd).composite(&nll_loss_nd_composite);
  lib.def(OpId::cross_entropy_loss).composite(&cross_entropy_loss_composite);
  lib.def(OpId::embedding).composite(&embedding_composite);
}

}  // namespace lz
