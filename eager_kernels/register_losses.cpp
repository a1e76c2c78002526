// Element-wise losses (core/operators.def): mse_loss, l1_loss,
// smooth_l1_loss, binary_cross_entropy(_with_logits). Composites of
// pointwise operators and one reduction, so lazily each is one fused kernel
// and autograd differentiates their parts. (nll_loss and cross_entropy,
// which pick classes, are in register_nn.cpp.)
#include "core/error.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "core/ops_nn.h"
#include "core/ops_reduction.h"
#include "core/ops_unary.h"
#include "core/shape.h"
#include "eager_kernels/meta/meta_utils.h"
#include "eager_kernels/meta/nn_meta.h"

namespace lz {

namespace {

// self and target defined, floating, broadcastable; a valid reduction.
void check_loss_inputs(std::string_view op, const Tensor& self, const Tensor& target, int64_t reduction) {
  meta::check_defined(op, "self", self);
  meta::check_defined(op, "target", target);
  meta::check_reduction(op, reduction);
  LZ_CHECK(is_floating_point(self.dtype()) && is_floating_point(target.dtype()), TypeError, "[", op,
           "] self, target: expected floating point tensors, got ", self.dtype(), " and ", target.dtype());
  broadcast_shapes(self.sizes(), target.sizes(), op, "self", "target");  // a ShapeError naming op
}

// Losses that mean the probabilities of self take a target of self's shape
// (PyTorch's binary cross entropies do not broadcast).
void check_same_shape(std::string_view op, const Tensor& self, const Tensor& target) {
  LZ_CHECK(self.sizes() == target.sizes(), ShapeError, "[", op, "] target: expected target of self's shape ",
           shape_str(self.sizes()), ", got ", shape_str(target.sizes()));
}

Tensor reduce_loss(const Tensor& loss, int64_t reduction) {
  if (reduction == Reduction::None) return loss;
  return reduction == Reduction::Sum ? loss.sum() : loss.mean();
}

Tensor weighted(const Tensor& loss, const std::optional<Tensor>& weight) {
  return weight && weight->defined() ? loss * *weight : loss;
}

Tensor mse_loss_composite(const Tensor& self, const Tensor& target, int64_t reduction) {
  check_loss_inputs("mse_loss", self, target, reduction);
  return reduce_loss((self - target).square(), reduction);
}

Tensor l1_loss_composite(const Tensor& self, const Tensor& target, int64_t reduction) {
  check_loss_inputs("l1_loss", self, target, reduction);
  return reduce_loss((self - target).abs(), reduction);
}

Tensor smooth_l1_loss_composite(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  check_loss_inputs("smooth_l1_loss", self, target, reduction);
  LZ_CHECK(beta >= 0, ValueError, "[smooth_l1_loss] beta: expected a non-negative beta, got ", beta);
  const Tensor diff = self - target;
  const Tensor distance = diff.abs();
  if (beta == 0) return reduce_loss(distance, reduction);
  // diff.square(), not distance.square(): through abs, the second
  // derivative at diff == 0 would be sign(0)^2 = 0 instead of 2.
  const Tensor loss = where(distance < beta, diff.square() * (0.5 / beta), distance - 0.5 * beta);
  return reduce_loss(loss, reduction);
}

// The cross entropies compute in float32 for 16-bit inputs (their chains of
// logs and sums lose most of float16's digits), then round once.
Tensor binary_cross_entropy_composite(const Tensor& self, const Tensor& target,
                                      const std::optional<Tensor>& weight, int64_t reduction) {
  check_loss_inputs("binary_cross_entropy", self, target, reduction);
  check_same_shape("binary_cross_entropy", self, target);
  const ScalarType compute = meta::opmath_dtype(self.dtype());
  const Tensor p = self.to(compute), t = target.to(compute);
  // Each log is clamped at -100 so a probability of exactly 0 or 1 gives a
  // finite loss (PyTorch's choice).
  const Tensor log_p = log(p).clamp_min(-100);
  const Tensor log_not_p = log1p(-p).clamp_min(-100);
  const Tensor loss = (t - 1) * log_not_p - t * log_p;
  return reduce_loss(weighted(loss, weight), reduction).to(self.dtype());
}

Tensor binary_cross_entropy_with_logits_composite(const Tensor& self, const Tensor& target,
                                                  const std::optional<Tensor>& weight,
                                                  const std::optional<Tensor>& pos_weight, int64_t reduction) {
  const std::string_view op = "binary_cross_entropy_with_logits";
  check_loss_inputs(op, self, target, reduction);
  check_same_shape(op, self, target);
  const ScalarType compute = meta::opmath_dtype(self.dtype());
  const Tensor x = self.to(compute), t = target.to(compute);
  // log(1 + exp(-x)) as softplus(-x), whose exp never overflows and whose
  // gradient is smooth at 0 (log1p(exp(-|x|)) + relu(-x) has a kink there).
  const Tensor log_sigmoid_neg = softplus(-x);
  Tensor loss;
  if (pos_weight && pos_weight->defined()) {
    const Tensor log_weight = (*pos_weight - 1) * t + 1;
    loss = (1 - t) * x + log_weight * log_sigmoid_neg;
  } else {
    loss = (1 - t) * x + log_sigmoid_neg;
  }
  return reduce_loss(weighted(loss, weight), reduction).to(self.dtype());
}

}  // namespace

LZ_LIBRARY(loss_ops) {
  lib.def(OpId::mse_loss).composite(&mse_loss_composite);
  lib.def(OpId::l1_loss).composite(&l1_loss_composite);
  lib.def(OpId::smooth_l1_loss).composite(&smooth_l1_loss_composite);
  lib.def(OpId::binary_cross_entropy).composite(&binary_cross_entropy_composite);
  lib.def(OpId::binary_cross_entropy_with_logits).composite(&binary_cross_entropy_with_logits_composite);
}

}  // namespace lz
