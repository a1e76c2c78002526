// Activations (core/operators.def): composites of pointwise operators, so
// lazily they fuse with their neighbours and autograd differentiates their
// parts. A branch where() does not pick is clamped to stay finite: its
// gradient is multiplied by zero, and zero times inf would be NaN.
#include "core/error.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "core/ops_compare.h"
#include "core/ops_nn.h"
#include "core/ops_unary.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz {

namespace {

void check_floating(std::string_view op, const Tensor& self) {
  meta::check_defined(op, "self", self);
  LZ_CHECK(is_floating_point(self.dtype()), TypeError, "[", op, "] self: not implemented for dtype ",
           self.dtype());
}

Tensor leaky_relu_composite(const Tensor& self, const Scalar& negative_slope) {
  check_floating("leaky_relu", self);
  return where(self > 0, self, self * negative_slope);
}

Tensor elu_composite(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  check_floating("elu", self);
  const Tensor negative = expm1(self.clamp_max(0) * input_scale) * (alpha.to_double() * scale.to_double());
  return where(self > 0, self * scale, negative);
}

// In float32 for 16-bit inputs: exp(threshold) overflows float16.
Tensor softplus_composite(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  check_floating("softplus", self);
  const Tensor x = self.to(meta::opmath_dtype(self.dtype()));
  const Tensor scaled = x * beta;
  const Tensor smooth = log1p(exp(scaled.clamp_max(threshold))) / beta;
  return where(scaled > threshold, x, smooth).to(self.dtype());
}

Tensor hardtanh_composite(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  check_floating("hardtanh", self);
  return clamp(self, min_val, max_val);
}

}  // namespace

LZ_LIBRARY(activation_ops) {
  lib.def(OpId::leaky_relu).composite(&leaky_relu_composite);
  lib.def(OpId::elu).composite(&elu_composite);
  lib.def(OpId::softplus).composite(&softplus_composite);
  lib.def(OpId::hardtanh).composite(&hardtanh_composite);
}

}  // namespace lz
