#include "eager_kernels/meta/unary_meta.h"

#include "core/error.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

namespace {

TensorMeta same_dtype_no_bool(std::string_view op, const Tensor& self) {
  check_defined(op, "self", self);
  LZ_CHECK(self.dtype() != ScalarType::Bool, TypeError, "[", op,
           "] self: not implemented for dtype bool");
  return meta_of(self);
}

TensorMeta float_valued(std::string_view op, const Tensor& self) {
  check_defined(op, "self", self);
  TensorMeta m = meta_of(self);
  if (!is_floating_point(m.dtype)) m.dtype = default_float_dtype();
  return m;
}

TensorMeta floating_only(std::string_view op, const Tensor& self) {
  check_defined(op, "self", self);
  LZ_CHECK(is_floating_point(self.dtype()), TypeError, "[", op,
           "] self: not implemented for dtype ", self.dtype(),
           " (expected a floating point tensor: float16, bfloat16, float32 or float64)");
  return meta_of(self);
}

TensorMeta bool_result(std::string_view op, const Tensor& self) {
  check_defined(op, "self", self);
  TensorMeta m = meta_of(self);
  m.dtype = ScalarType::Bool;
  return m;
}

}  // namespace

TensorMeta neg(const Tensor& self) {
  check_defined("neg", "self", self);
  LZ_CHECK(self.dtype() != ScalarType::Bool, TypeError,
           "[neg] self: negation, the `-` operator, on a bool tensor is not supported; use "
           "logical_not() or `~` to invert a mask");
  return meta_of(self);
}

TensorMeta abs(const Tensor& self) { return same_dtype_no_bool("abs", self); }
TensorMeta relu(const Tensor& self) { return same_dtype_no_bool("relu", self); }
TensorMeta floor(const Tensor& self) { return same_dtype_no_bool("floor", self); }
TensorMeta ceil(const Tensor& self) { return same_dtype_no_bool("ceil", self); }
TensorMeta round(const Tensor& self) { return same_dtype_no_bool("round", self); }
TensorMeta trunc(const Tensor& self) { return same_dtype_no_bool("trunc", self); }

TensorMeta sign(const Tensor& self) {
  check_defined("sign", "self", self);
  return meta_of(self);
}

TensorMeta square(const Tensor& self) {
  check_defined("square", "self", self);
  TensorMeta m = meta_of(self);
  // pow(self, 2): the int exponent promotes a bool tensor to int64.
  if (m.dtype == ScalarType::Bool) m.dtype = ScalarType::Long;
  return m;
}

TensorMeta reciprocal(const Tensor& self) { return float_valued("reciprocal", self); }
TensorMeta exp(const Tensor& self) { return float_valued("exp", self); }
TensorMeta exp2(const Tensor& self) { return float_valued("exp2", self); }
TensorMeta expm1(const Tensor& self) { return float_valued("expm1", self); }
TensorMeta log(const Tensor& self) { return float_valued("log", self); }
TensorMeta log2(const Tensor& self) { return float_valued("log2", self); }
TensorMeta log1p(const Tensor& self) { return float_valued("log1p", self); }
TensorMeta sqrt(const Tensor& self) { return float_valued("sqrt", self); }
TensorMeta rsqrt(const Tensor& self) { return float_valued("rsqrt", self); }
TensorMeta sin(const Tensor& self) { return float_valued("sin", self); }
TensorMeta cos(const Tensor& self) { return float_valued("cos", self); }
TensorMeta tan(const Tensor& self) { return float_valued("tan", self); }
TensorMeta tanh(const Tensor& self) { return float_valued("tanh", self); }
TensorMeta sigmoid(const Tensor& self) { return float_valued("sigmoid", self); }
TensorMeta erf(const Tensor& self) { return float_valued("erf", self); }

TensorMeta gelu(const Tensor& self, std::string_view approximate) {
  TensorMeta m = floating_only("gelu", self);
  LZ_CHECK(approximate == "none" || approximate == "tanh", ValueError,
           "[gelu] approximate: expected 'none' or 'tanh', got '", approximate, "'");
  return m;
}

TensorMeta silu(const Tensor& self) { return floating_only("silu", self); }
TensorMeta hardswish(const Tensor& self) { return floating_only("hardswish", self); }

TensorMeta logical_not(const Tensor& self) { return bool_result("logical_not", self); }
TensorMeta isnan(const Tensor& self) { return bool_result("isnan", self); }
TensorMeta isinf(const Tensor& self) { return bool_result("isinf", self); }

TensorMeta bitwise_not(const Tensor& self) {
  check_defined("bitwise_not", "self", self);
  LZ_CHECK(is_integral(self.dtype(), /*include_bool=*/true), TypeError,
           "[bitwise_not] self: not implemented for dtype ", self.dtype(),
           " (expected an integer or bool tensor)");
  return meta_of(self);
}

}  // namespace lz::meta
