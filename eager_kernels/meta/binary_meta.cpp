#include "eager_kernels/meta/binary_meta.h"

#include "core/error.h"
#include "core/type_promotion.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

TensorMeta binary(std::string_view op, const Tensor& self, const Tensor& other,
                  std::string_view other_name) {
  check_defined(op, "self", self);
  check_defined(op, other_name, other);
  Device device = self.device();
  if (self.device() != other.device()) {
    // A 0-dim CPU tensor is a scalar and may join a tensor on any device.
    const bool self_is_cpu_scalar = self.dim() == 0 && self.is_cpu();
    const bool other_is_cpu_scalar = other.dim() == 0 && other.is_cpu();
    LZ_CHECK(self_is_cpu_scalar || other_is_cpu_scalar, DeviceError, "[", op,
             "] expected all tensors on the same device, but self is on ", self.device(),
             " and ", other_name, " on ", other.device());
    device = self_is_cpu_scalar ? other.device() : self.device();
  }
  return TensorMeta{broadcast_shapes(self.sizes(), other.sizes(), op, "self", other_name),
                    result_type(self, other), device};
}

namespace {

void check_alpha(std::string_view op, ScalarType result, const Scalar& alpha) {
  LZ_CHECK(!(is_integral(result, /*include_bool=*/true) && alpha.is_floating_point()), TypeError,
           "[", op, "] alpha: for integral input tensors (", result,
           "), alpha must not be a floating point number, got ", alpha);
  LZ_CHECK(result == ScalarType::Bool || !alpha.is_bool(), TypeError, "[", op,
           "] alpha: a bool alpha is only supported for bool results, got result type ", result);
}

// TypeError for a bool result of an arithmetic operator bool has no kernel for.
void check_not_bool(std::string_view op, const TensorMeta& m, const Tensor& self, const Tensor& other,
                    std::string_view other_name = "other") {
  LZ_CHECK(m.dtype != ScalarType::Bool, TypeError, "[", op, "] self: not implemented for bool (self ",
           self.dtype(), ", ", other_name, " ", other.dtype(), " promote to bool)");
}

// Comparisons and logical operators: broadcast like a binary operator, bool result.
TensorMeta to_bool(TensorMeta m) {
  m.dtype = ScalarType::Bool;
  return m;
}

TensorMeta bitwise(std::string_view op, const Tensor& self, const Tensor& other) {
  TensorMeta m = binary(op, self, other);
  LZ_CHECK(is_integral(m.dtype, /*include_bool=*/true), TypeError, "[", op,
           "] self: bitwise operators are only implemented for integral and bool dtypes, got self ",
           self.dtype(), " and other ", other.dtype(), " (promoted to ", m.dtype, ")");
  return m;
}

}  // namespace

TensorMeta add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  TensorMeta m = binary("add", self, other);
  check_alpha("add", m.dtype, alpha);
  return m;
}

TensorMeta sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  TensorMeta m = binary("sub", self, other);
  LZ_CHECK(self.dtype() != ScalarType::Bool && other.dtype() != ScalarType::Bool, TypeError,
           "[sub] subtraction, the `-` operator, with a bool tensor is not supported (self ",
           self.dtype(), ", other ", other.dtype(),
           "); use logical_xor() or `^` to compare masks");
  check_alpha("sub", m.dtype, alpha);
  return m;
}

TensorMeta mul(const Tensor& self, const Tensor& other) { return binary("mul", self, other); }

TensorMeta div(const Tensor& self, const Tensor& other) {
  TensorMeta m = binary("div", self, other);
  if (!is_floating_point(m.dtype)) m.dtype = default_float_dtype();
  return m;
}

TensorMeta div_mode(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return div(self, other);
  LZ_CHECK(*rounding_mode == "trunc" || *rounding_mode == "floor", ValueError,
           "[div] rounding_mode: expected \"trunc\", \"floor\" or None (true division), got \"",
           *rounding_mode, "\"");
  TensorMeta m = binary("div", self, other);
  LZ_CHECK(m.dtype != ScalarType::Bool, TypeError, "[div] self: rounding_mode \"", *rounding_mode,
           "\" is not implemented for bool (self ", self.dtype(), ", other ", other.dtype(), ")");
  return m;
}

TensorMeta pow(const Tensor& self, const Tensor& exponent) {
  TensorMeta m = binary("pow", self, exponent, "exponent");
  check_not_bool("pow", m, self, exponent, "exponent");
  return m;
}

TensorMeta pow_tensor_scalar(const Tensor& self, const Scalar& exponent) {
  check_defined("pow", "self", self);
  LZ_CHECK(!(is_integral(self.dtype(), /*include_bool=*/true) && exponent.is_integral(/*include_bool=*/true) &&
             exponent.to_long() < 0),
           ValueError, "[pow] exponent: integers to negative integer powers are not allowed (self ",
           self.dtype(), ", exponent ", exponent, ")");
  return pow(self, wrapped_number_meta(exponent));
}

TensorMeta remainder(const Tensor& self, const Tensor& other) {
  TensorMeta m = binary("remainder", self, other);
  check_not_bool("remainder", m, self, other);
  return m;
}

TensorMeta fmod(const Tensor& self, const Tensor& other) {
  TensorMeta m = binary("fmod", self, other);
  check_not_bool("fmod", m, self, other);
  return m;
}

TensorMeta atan2(const Tensor& self, const Tensor& other) {
  TensorMeta m = binary("atan2", self, other);
  if (!is_floating_point(m.dtype)) m.dtype = default_float_dtype();
  return m;
}

TensorMeta maximum(const Tensor& self, const Tensor& other) { return binary("maximum", self, other); }
TensorMeta minimum(const Tensor& self, const Tensor& other) { return binary("minimum", self, other); }

TensorMeta eq(const Tensor& self, const Tensor& other) { return to_bool(binary("eq", self, other)); }
TensorMeta ne(const Tensor& self, const Tensor& other) { return to_bool(binary("ne", self, other)); }
TensorMeta lt(const Tensor& self, const Tensor& other) { return to_bool(binary("lt", self, other)); }
TensorMeta le(const Tensor& self, const Tensor& other) { return to_bool(binary("le", self, other)); }
TensorMeta gt(const Tensor& self, const Tensor& other) { return to_bool(binary("gt", self, other)); }
TensorMeta ge(const Tensor& self, const Tensor& other) { return to_bool(binary("ge", self, other)); }
TensorMeta logical_and(const Tensor& self, const Tensor& other) {
  return to_bool(binary("logical_and", self, other));
}
TensorMeta logical_or(const Tensor& self, const Tensor& other) {
  return to_bool(binary("logical_or", self, other));
}
TensorMeta logical_xor(const Tensor& self, const Tensor& other) {
  return to_bool(binary("logical_xor", self, other));
}

TensorMeta bitwise_and(const Tensor& self, const Tensor& other) { return bitwise("bitwise_and", self, other); }
TensorMeta bitwise_or(const Tensor& self, const Tensor& other) { return bitwise("bitwise_or", self, other); }
TensorMeta bitwise_xor(const Tensor& self, const Tensor& other) { return bitwise("bitwise_xor", self, other); }

}  // namespace lz::meta
